#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The README's two commands. On a fresh Debian 12 machine, as root:
#   scripts/bootstrap.sh demo   install what is missing, build, run the demo profile on the virtual SSD
#   scripts/bootstrap.sh test   install what is missing, build, run the whole test suite
# Options: BUILDDIR (default build), MESON_ARGS (extra meson setup arguments), MESON_TEST_ARGS (extra
# meson test arguments, e.g. --timeout-multiplier for a sanitizer build).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
mode=${1:-}
case "$mode" in
demo | test) ;;
*)
	echo "usage: $0 demo|test" >&2
	exit 2
	;;
esac

# Build dependencies, and what the tests drive: losetup/sfdisk/mkfs/mkswap for loop-device tests,
# localedef for the comma-decimal locale test, clang for the fuzz target, python3 to check JSON,
# skdump (libatasmart-bin) as the independent SMART decoder the smart_blobs test compares with,
# chromium for the headless-browser check of report.html (a skip elsewhere, a failure under CI=true).
# fio, the peer tool export-fio and analyze --fio are checked against (the same: skip, or CI failure).
pkgs=(meson ninja-build pkg-config gcc liburing-dev libyaml-dev libgsl-dev libatasmart-dev
	libcmocka-dev libjson-c-dev)
if [ "$mode" = test ]; then
	pkgs+=(util-linux mount fdisk e2fsprogs locales clang libclang-rt-dev python3 kmod libatasmart-bin fio
		chromium)
fi

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ]; then
		echo "missing packages: ${missing[*]}; run as root or install them first" >&2
		exit 2
	fi
	echo "installing: ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

builddir=${BUILDDIR:-build}
if [ ! -f "$builddir/build.ninja" ]; then
	# shellcheck disable=SC2086
	meson setup "$builddir" ${MESON_ARGS:-}
fi
ninja -C "$builddir"

if [ "$mode" = demo ]; then
	exec "$builddir/suite/ssdlab" run demo
fi
# The qemu suite boots Debian's kernel with emulated NVMe and SATA drives (issue 11): install QEMU
# and cache the kernel once (about 35 s on a fresh machine, 2 s after).
if [ "$(id -u)" -eq 0 ]; then
	scripts/qemu-setup.sh
else
	echo "not root: scripts/qemu-setup.sh not run, the qemu test will skip"
fi
# shellcheck disable=SC2086
meson test -C "$builddir" --print-errorlogs --num-processes 2 ${MESON_TEST_ARGS:-}
