#!/bin/bash
# SPDX-License-Identifier: MIT
# Builds the profile-parser fuzz target with clang (libFuzzer + ASan + UBSan, the libraries
# instrumented for coverage) in its own build directory and runs it for SECONDS (default 20)
# on a seed corpus made of the bundled profiles and the test profiles. Exit 0 when the fuzzer
# found nothing; otherwise the fuzzer's exit code, with the crashing input left in
# $FUZZ_ARTIFACTS (default build-fuzz/artifacts/). FUZZ_CORPUS=DIR keeps the corpus between
# runs (default: a temporary directory, removed at the end).
#
#   scripts/fuzz-profile.sh 30
set -euo pipefail

secs=${1:-20}
case $secs in
'' | *[!0-9]*) echo "usage: $0 [SECONDS]" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD_DIR:-$root/build-fuzz}
artifacts=${FUZZ_ARTIFACTS:-$build/artifacts}

command -v clang >/dev/null || { echo "$0: clang is needed (apt-get install clang)" >&2; exit 2; }
# libFuzzer's runtime is only a Recommends of Debian's clang: say so instead of a link error.
rt=$(clang -print-file-name="libclang_rt.fuzzer-$(uname -m).a")
[ -f "$rt" ] || {
	echo "$0: clang's libFuzzer runtime is missing (apt-get install libclang-rt-dev)" >&2
	exit 2
}
if [ ! -f "$build/build.ninja" ]; then
	CC=clang meson setup "$build" "$root" -Dfuzz=true -Db_sanitize=address,undefined \
		-Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link >/dev/null
fi
ninja -C "$build" tests/fuzz_profile >/dev/null

if [ -n "${FUZZ_CORPUS:-}" ]; then
	corpus=$FUZZ_CORPUS
	mkdir -p "$corpus"
else
	corpus=$(mktemp -d)
	trap 'rm -rf "$corpus"' EXIT
fi
cp "$root"/profiles/*.yaml "$corpus"/
if compgen -G "$root/tests/profiles/*.yaml" >/dev/null; then
	cp "$root"/tests/profiles/*.yaml "$corpus"/
fi
mkdir -p "$artifacts"
dict=()
[ -f "$root/tests/profiles/fuzz.dict" ] && dict=(-dict="$root/tests/profiles/fuzz.dict")
"$build/tests/fuzz_profile" -max_total_time="$secs" -max_len=4096 -timeout=10 \
	-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" "$corpus"
