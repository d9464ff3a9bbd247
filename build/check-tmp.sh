#!/usr/bin/env bash
# check-tmp.sh runs a command with TMPDIR set to a fresh, empty directory
# and fails if the command leaves anything in it, so that a test which
# forgets to clean up is caught on every run instead of filling /tmp.
#
#   build/check-tmp.sh make test-steps
set -uo pipefail

tmp=$(mktemp -d "${TMPDIR:-/tmp}/askuser-test-tmp.XXXXXX") || exit 1
# A run stopped by a signal removes its directory too (a SIGKILL cannot).
trap 'rm -rf "$tmp"; exit 130' INT
trap 'rm -rf "$tmp"; exit 143' TERM HUP
# Go's test driver and node both honour TMPDIR. Every line of output
# gets the minutes and seconds since the start, so that a slow step shows
# in the log.
start=$SECONDS
TMPDIR=$tmp "$@" 2>&1 | while IFS= read -r line || [ -n "$line" ]; do
	e=$((SECONDS - start))
	printf '[%2d:%02d] %s\n' $((e / 60)) $((e % 60)) "$line"
done
rc=${PIPESTATUS[0]}
e=$((SECONDS - start))
printf '[%2d:%02d] %s exited with status %d\n' $((e / 60)) $((e % 60)) "$*" "$rc"

left=$(cd "$tmp" && find . -mindepth 1 -maxdepth 2 | sort | head -n 40)
rm -rf "$tmp"
if [ -n "$left" ]; then
	echo "check-tmp: the run left files in its temporary directory:" >&2
	printf '  %s\n' $left >&2
	[ "$rc" -eq 0 ] && rc=1
fi
exit "$rc"
