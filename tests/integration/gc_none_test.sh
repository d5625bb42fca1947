#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# gc_none_test: gc_recovery_test.sh on a model without idle GC (idle-gc-aggressive with idle GC
# switched off): nothing reclaimed, a rate of about zero.
GC_MODEL=idle-gc-off exec "$(dirname "${BASH_SOURCE[0]}")/gc_recovery_test.sh"
