#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# install_test (issue 18 point 4): `meson install --destdir D` of this build puts each file where
# it belongs under D/<prefix>:
#   bin/ssdlab, share/ssdlab/profiles/ (every profile, models/ and drives/ of the source tree,
#   byte for byte), share/man/man1/ssdlab.1, share/bash-completion/completions/ssdlab;
# and the installed binary, run from there, finds its bundled profiles and models THERE (the paths
# `profiles --paths` and `models --paths` print lie under D, not in the source tree), checks a
# bundled profile by name and plans it on a bundled model; and the drive database: `drives --path`
# names the installed file and `drives` lists it with the source tree's profiles hidden.
# usage: install_test.sh BUILD_DIR
set -u
build=$1
src=$SSDLAB_SRCDIR
command -v meson >/dev/null || { echo "SKIP: no meson on PATH"; exit 77; }
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
fail=0
t0=$(date +%s.%N)
meson install -C "$build" --no-rebuild --quiet --destdir "$d" >"$d.log" 2>&1 ||
	{ cat "$d.log"; rm -f "$d.log"; echo "FAIL: meson install"; exit 1; }
rm -f "$d.log"
prefix=$(meson introspect "$build" --buildoptions |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
root=$d$prefix
exe=$root/bin/ssdlab
for f in bin/ssdlab share/man/man1/ssdlab.1 share/bash-completion/completions/ssdlab \
	share/ssdlab/profiles/smoke.yaml share/ssdlab/profiles/drives/drives.yaml; do
	[ -f "$root/$f" ] || { echo "FAIL: $prefix/$f not installed"; fail=1; }
done
[ -x "$exe" ] || { echo "FAIL: $exe not executable"; exit 1; }
cmp -s "$src/man/ssdlab.1" "$root/share/man/man1/ssdlab.1" || { echo "FAIL: man page differs"; fail=1; }
cmp -s "$src/completion/ssdlab.bash" "$root/share/bash-completion/completions/ssdlab" ||
	{ echo "FAIL: completion differs"; fail=1; }
diff -r "$src/profiles" "$root/share/ssdlab/profiles" >/dev/null ||
	{ echo "FAIL: installed profiles differ from the source tree's"; fail=1; }

# From elsewhere, no SSDLAB_* variables: the bundled files must come from the install.
cd "$d" || exit 1
unset SSDLAB_PROFILES SSDLAB_MODELS
np=$(ls "$src"/profiles/*.yaml | wc -l)
paths=$("$exe" profiles --paths) || { echo "FAIL: installed profiles"; exit 1; }
nin=$(grep -c "^ *$root/share/ssdlab/profiles/[a-z0-9-]*\.yaml\$" <<<"$paths")
nsrc=$(grep -c "$src/profiles" <<<"$paths")
[ "$nin" = "$np" ] && [ "$nsrc" = 0 ] ||
	{ echo "FAIL: profiles --paths: $nin of $np under $root, $nsrc in the source tree"; fail=1; }
nm=$(ls "$src"/profiles/models/*.yaml | wc -l)
paths=$("$exe" models --paths) || { echo "FAIL: installed models"; exit 1; }
nin=$(grep -c "^ *$root/share/ssdlab/profiles/models/[a-z0-9-]*\.yaml\$" <<<"$paths")
[ "$nin" = "$nm" ] || { echo "FAIL: models --paths: $nin of $nm under $root"; fail=1; }
"$exe" check smoke >/dev/null || { echo "FAIL: installed check smoke"; fail=1; }
"$exe" plan smoke --target sim:client-tlc >/dev/null || { echo "FAIL: installed plan smoke"; fail=1; }
# The drive database the same way (drivedb_default_path): `drives --path` names the installed
# file, and `drives` lists it with the source tree's profiles hidden (a private mount namespace
# with an empty tmpfs over them, when this user may make one) or, where not, as it is.
dbp=$("$exe" drives --path) || { echo "FAIL: installed drives --path"; fail=1; }
[ "$dbp" = "$root/share/ssdlab/profiles/drives/drives.yaml" ] ||
	{ echo "FAIL: drives --path: '$dbp', not the installed $root/share/ssdlab/profiles/drives/drives.yaml"; fail=1; }
ndb=$(grep -c '^  - name:' "$src/profiles/drives/drives.yaml")
if unshare -m true 2>/dev/null; then
	hidden=$(unshare -m sh -c 'mount -t tmpfs none "$1" && ls -A "$1" | wc -l && "$2" drives' sh \
		"$src/profiles" "$exe") || { echo "FAIL: installed drives with the source tree hidden"; fail=1; }
	how="with the source tree's profiles hidden"
else
	hidden="0
$("$exe" drives)" || { echo "FAIL: installed drives"; fail=1; }
	how="(no mount namespace here: the source tree not hidden)"
fi
[ "$(head -1 <<<"$hidden")" = 0 ] || { echo "FAIL: the source tree's profiles were not hidden"; fail=1; }
nl=$(tail -n +2 <<<"$hidden" | grep -c .)
[ "$nl" -ge "$ndb" ] && [ "$ndb" -gt 0 ] ||
	{ echo "FAIL: installed drives $how listed $nl lines for $ndb entries"; fail=1; }
echo "installed drives $how: $nl lines for $ndb entries, from $dbp"
echo "installed into $d$prefix: $np profiles, $nm models found there;" \
	"$(echo "$(date +%s.%N) - $t0" | bc) s"
exit $fail
