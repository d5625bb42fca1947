#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# qemu-setup: prepare what tests/integration/qemu_test.sh needs to boot a real Debian kernel under
# QEMU (TCG) with an emulated NVMe and an AHCI SATA disk. As root, once per machine:
#   scripts/qemu-setup.sh
# 1. apt-get installs what is missing: qemu-system-x86 (the emulator), busybox-static (the guest's
#    shell and tools, statically linked so the initramfs needs no libc for it), kmod (depmod).
# 2. Fetches the kernel package that linux-image-amd64 depends on with `apt-get download` and
#    unpacks it with `dpkg -x` into the cache: installing linux-image-amd64 would take minutes to
#    generate an initramfs the test does not use (docs: ../shared/reference/qemu-devices.md).
# 3. Runs `depmod -b` (the .deb ships no modules.dep) and writes the NVMe/SATA modules, uncompressed,
#    in load order, to $CACHE/mods/ with the order in $CACHE/mods/list.
# 4. Writes $CACHE/ready (the kernel version): the test treats a cache with it as "setup was run",
#    so under CI=true a missing piece is then a failure rather than a skip.
# Cache: $SSDLAB_QEMU_CACHE, default /var/cache/ssdlab-qemu. Rerunning is cheap (steps already done
# are skipped); KVER=... picks another kernel ABI.
set -euo pipefail

CACHE=${SSDLAB_QEMU_CACHE:-/var/cache/ssdlab-qemu}

die() {
	echo "qemu-setup: $*" >&2
	exit 1
}

[ "$(id -u)" -eq 0 ] || die "run as root (apt-get install and the kernel cache need it)"

need=()
command -v qemu-system-x86_64 >/dev/null || need+=(qemu-system-x86)
[ -x /bin/busybox ] && /bin/busybox --list 2>/dev/null | grep -qx cpio || need+=(busybox-static)
command -v depmod >/dev/null || need+=(kmod)
command -v xz >/dev/null || need+=(xz-utils)
if [ ${#need[@]} -gt 0 ]; then
	echo "qemu-setup: installing ${need[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# busybox (dynamic) may be installed instead of busybox-static: the guest has no libc for it.
file -L /bin/busybox 2>/dev/null | grep -q 'statically linked' ||
	ldd /bin/busybox 2>&1 | grep -q 'not a dynamic' ||
	die "/bin/busybox is not statically linked: apt-get install busybox-static"

# The kernel ABI the distribution's meta package points at, e.g. 6.1.0-57-amd64.
if [ -z "${KVER:-}" ]; then
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}')
	if [ -z "$pkg" ]; then # a fresh machine's package lists may be empty
		apt-get update -qq
		pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ {print $2; exit}')
	fi
	[ -n "$pkg" ] || die "apt-cache knows no linux-image-amd64 (run apt-get update)"
	KVER=${pkg#linux-image-}
fi
K=$CACHE/kern-$KVER
MD=$K/lib/modules/$KVER
mkdir -p "$CACHE"

if [ ! -f "$K/boot/vmlinuz-$KVER" ]; then
	dl=$(mktemp -d "$CACHE/dl.XXXXXX")
	# A failed download must not leave a half-unpacked tree that later runs would take as done.
	trap 'rm -rf "$dl"' EXIT
	(cd "$dl" && apt-get download -q "linux-image-$KVER" >/dev/null) || die "apt-get download linux-image-$KVER failed"
	rm -rf "$K.tmp"
	dpkg -x "$dl"/linux-image-"$KVER"_*.deb "$K.tmp"
	rm -rf "$K"
	mv "$K.tmp" "$K"
	rm -rf "$dl"
	trap - EXIT
fi
[ -f "$MD/modules.dep" ] || depmod -b "$K" "$KVER"

# Load order (modules.dep): the *_generic crypto providers before the crc libraries that look them
# up, the NVMe driver, then SCSI/libata/AHCI and the disk (sd_mod) and generic SCSI (sg) drivers.
MODS="crypto/crct10dif_common crypto/crct10dif_generic lib/crc-t10dif lib/crc64
crypto/crc64_rocksoft_generic lib/crc64-rocksoft block/t10-pi
drivers/nvme/host/nvme-core drivers/nvme/host/nvme
drivers/scsi/scsi_common drivers/scsi/scsi_mod drivers/ata/libata drivers/ata/libahci
drivers/ata/ahci drivers/scsi/sd_mod drivers/scsi/sg"
rm -rf "$CACHE/mods.tmp"
mkdir -p "$CACHE/mods.tmp"
: >"$CACHE/mods.tmp/list"
for m in $MODS; do
	f=$(find "$MD/kernel/$(dirname "$m")" -maxdepth 1 -name "$(basename "$m").ko*" 2>/dev/null | head -1)
	[ -n "$f" ] || die "module $m missing from $MD"
	b=$(basename "$f")
	cp "$f" "$CACHE/mods.tmp/$b"
	case $b in
	*.xz) xz -d "$CACHE/mods.tmp/$b" && b=${b%.xz} ;;
	*.zst) zstd -q -d --rm "$CACHE/mods.tmp/$b" && b=${b%.zst} ;;
	esac
	echo "$b" >>"$CACHE/mods.tmp/list"
done
rm -rf "$CACHE/mods"
mv "$CACHE/mods.tmp" "$CACHE/mods"
cp "$K/boot/vmlinuz-$KVER" "$CACHE/vmlinuz"
echo "$KVER" >"$CACHE/ready"
echo "qemu-setup: kernel $KVER ready in $CACHE"
