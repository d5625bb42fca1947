#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# man_test (issue 18 point 4): man/ssdlab.1 renders with `man --warnings -l` without a warning and
# names every subcommand of suite/cli/cmd_table.h (its own subsection) and every long option each
# `ssdlab CMD --help` prints (in that subsection), so the page cannot drift (man_check.py).
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
command -v man >/dev/null || { echo "SKIP: no man (man-db)"; exit 77; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
exec python3 "$here/man_check.py" "$SSDLAB" "$SSDLAB_SRCDIR/man/ssdlab.1" \
	"$SSDLAB_SRCDIR/suite/cli/cmd_table.h"
