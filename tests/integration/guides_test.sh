#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# guides_test (issue 18 point 4): every bundled profile has its guide docs/profiles/<name>.md with
# the required parts, a sane PNG screenshot, the 1 TB duration `ssdlab profiles` prints now, and
# links from docs/profiles.md and README.md (guides_check.py says what exactly). Under a second.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${SSDLAB:?SSDLAB must point at the ssdlab binary (meson sets it)}"
: "${SSDLAB_SRCDIR:?SSDLAB_SRCDIR must point at the source tree (meson sets it)}"
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
exec python3 "$here/guides_check.py" "$SSDLAB" "$SSDLAB_SRCDIR"
