#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# gc_none_test: gc_recovery_test.sh on a model without idle GC (idle-gc-aggressive with idle GC
# switched off): nothing reclaimed, a rate of about zero.
# The write after each idle is 0.05x the capacity instead of the profile's 0.15x: a drive that
# recovers nothing is back within 1 to 3 of its 10 s records (its 8 MiB buffer written in the
# first), and 0.05x is still 4 to 9 records per idle, every one of the 16 judged "back" as with
# 0.15x; it halves the run's CPU time (4.4 to 2.0 s, 21 to 11 s of wall time under a load of
# 6 on 2 cores) without changing what is checked (16 points, nothing reclaimed, rate about 0).
GC_SET=phases.4.idle_sweep.after.0.write_until.amount=0.05x GC_MODEL=idle-gc-off exec "$(dirname "${BASH_SOURCE[0]}")/gc_recovery_test.sh"
