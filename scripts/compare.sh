#!/usr/bin/env bash
# make compare: build both kernels, boot each in QEMU, run the same test
# programs in each guest, and put the results side by side.
#
# Until the kernel tree defines CONFIG_UTRACE (utrace-core branch) only the
# utrace-off kernel exists; from then on both columns are mandatory.
. "$(dirname "$0")/lib.sh"

res=$BUILD/results
read -r -a configs <<<"$(active_configs)"
absent=()
[ -z "$(absent_reason)" ] || absent=(--absent "utrace-on=$(absent_reason)")

"$TOP/scripts/build.sh" "${configs[@]}"
"$TOP/tests/build.sh"

rc=0
cols=()
for c in "${configs[@]}"; do
	out=$res/$c
	mkdir -p "$out"
	note "booting $c and running $(grep -vc '^#' "$BUILD/tests/runlist") test programs (log: $out/output.log)"
	t0=$(date +%s)
	"$TOP/boot/qemu.py" --kernel "$BUILD/out/$c/arch/x86/boot/bzImage" \
		--script "$TOP/tests/run-tests.sh" --args "$BUILD/tests/runlist" \
		--out "$out" --timeout 2700 --silence 600 || {
		echo "compare: the $c guest did not finish by itself (see $out/output.log, $out/console.log)" >&2
		rc=1
	}
	note "$c guest ran for $(($(date +%s) - t0)) s"
	if ! "$TOP/boot/consolescan.py" "$out/console.log" >"$out/console-scan.txt"; then
		cat "$out/console-scan.txt" >&2
		echo "compare: the $c kernel reported a bug in its console (above): this fails the run" >&2
		rc=1
	fi
	# Built-in KUnit suites (utrace-on) print KTAP on the console at boot.
	if grep -qx 'CONFIG_KUNIT=y' "$BUILD/out/$c/.config"; then
		if python3 "$LINUX_DIR/tools/testing/kunit/kunit.py" parse "$out/console.log" \
			>"$out/kunit.txt" 2>&1 && grep -q 'Testing complete. Ran [1-9]' "$out/kunit.txt"; then
			note "$c KUnit: $(grep -o 'Testing complete.*' "$out/kunit.txt")"
			echo "1 0 0" >"$res/kunit-$c.counts"
		else
			tail -n 30 "$out/kunit.txt" >&2
			echo "compare: the $c KUnit suites failed or did not run (above; full: $out/kunit.txt)" >&2
			echo "0 1 0" >"$res/kunit-$c.counts"
			rc=1
		fi
	fi
	if ! "$TOP/tests/ktap.py" "$out/output.log" >"$out/results.tsv"; then
		echo "compare: the $c results are incomplete (above)" >&2
		rc=1
	fi
	cols+=("$c=$out/results.tsv")
done

# The real clients' transcripts (tests/clients), normalised and compared
# between the kernels: one 'clients/NAME transcript' row per client.
if grep -q '^clients/' "$BUILD/tests/runlist"; then
	"$TOP/tests/clients/transcripts.py" "$res" "$BUILD/tests/runlist" "${configs[@]}" || {
		echo "compare: comparing the clients' transcripts failed (above)" >&2
		rc=1
	}
	for c in "${configs[@]}"; do
		if [ -f "$res/$c/transcripts.tsv" ]; then
			cols+=("$c=$res/$c/transcripts.tsv")
		else
			echo "compare: $res/$c/transcripts.tsv was not written: the transcript rows are missing" >&2
			rc=1
		fi
	done
fi

# The utrace engine tests (ksft-utrace/) need CONFIG_UTRACE=y: they skip on
# utrace-off, where their rows read n/a.
"$TOP/tests/compare.py" "$res/compare.tsv" "${cols[@]}" "${absent[@]}" \
	--known "$TOP/tests/known-failures.txt" --only utrace-on=ksft-utrace/ || rc=1
exit $rc
