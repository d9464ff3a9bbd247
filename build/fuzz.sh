#!/usr/bin/env bash
# fuzz.sh runs every fuzz target in the module for FUZZTIME each (default
# 20s), one after another, and prints one line per target: executions,
# new corpus entries, and whether it found a failure. A failure leaves its
# input in the package's testdata/fuzz/<Target>/ as go test does, and makes
# the script exit non-zero after every target has run.
#
#   FUZZTIME=60s build/fuzz.sh            # every target
#   build/fuzz.sh ./contract ./internal/config  # only these packages
set -uo pipefail
cd "$(dirname "$0")/.."

GO=${GO:-go}
FUZZTIME=${FUZZTIME:-20s}
pkgs=("$@")
[ ${#pkgs[@]} -eq 0 ] && mapfile -t pkgs < <($GO list ./...)

log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT
failed=0
printf '%-28s %-22s %12s %8s  %s\n' package target execs new result
for pkg in "${pkgs[@]}"; do
	targets=$($GO test -list '^Fuzz' "$pkg" 2>/dev/null | grep '^Fuzz') || continue
	for t in $targets; do
		out=$log/out
		if $GO test -run '^$' -fuzz "^${t}\$" -fuzztime "$FUZZTIME" "$pkg" >"$out" 2>&1; then
			result=ok
		else
			result=FAIL
			failed=1
		fi
		# The last progress line carries the totals:
		# fuzz: elapsed: 20s, execs: 123456 (6172/sec), new interesting: 3 (total: 40)
		last=$(grep -E '^fuzz: elapsed' "$out" | tail -n 1)
		execs=$(sed -nE 's/.*execs: ([0-9]+).*/\1/p' <<<"$last")
		new=$(sed -nE 's/.*new interesting: ([0-9]+).*/\1/p' <<<"$last")
		printf '%-28s %-22s %12s %8s  %s\n' "${pkg#github.com/askuser/askuser/}" "$t" "${execs:-?}" "${new:-?}" "$result"
		if [ "$result" = FAIL ]; then
			sed -n '/--- FAIL/,$p' "$out" | head -n 30 | sed 's/^/    /'
		fi
	done
done
exit "$failed"
