#!/usr/bin/env bash
# make compare: build both kernels, boot each in QEMU, run the same test
# programs in each guest, and put the results side by side.
#
# Until the kernel tree defines CONFIG_UTRACE (utrace-core branch) only the
# utrace-off kernel exists; from then on both columns are mandatory.  Once
# the tree has the test module (lib/test_utrace.c), the utrace-on kernel
# boots a second time for a third column, utrace-on+bystander: the same
# programs, each started through tests/bystander/bystander, which attaches
# a second utrace engine (quiet, bouncing stops) to every process.
. "$(dirname "$0")/lib.sh"

res=$BUILD/results
read -r -a configs <<<"$(active_configs)"
absent=()
[ -z "$(absent_reason)" ] || absent=(--absent "utrace-on=$(absent_reason)")

by=utrace-on+bystander
bystander=""
if [ -n "$(absent_reason)" ]; then
	absent+=(--absent "$by=it runs on the utrace-on kernel, which is not built yet")
elif ! tree_has_test_utrace; then
	absent+=(--absent "$by=the kernel tree has no test module (lib/test_utrace.c) yet, so there is no second engine")
else
	bystander=yes
fi

"$TOP/scripts/build.sh" "${configs[@]}"
"$TOP/tests/build-programs.sh"

rc=0
cols=()
kernels=()
pids=()
# The columns' guests run at the same time, at most $COMPARE_GUESTS of
# them (default 3, all): a guest spends about half of its time waiting
# (timeouts, sleeps, one gdb thread on two vCPUs), so two host cores
# carry three guests in about the time of the longest alone.
# COMPARE_GUESTS=1 boots them one after another, as before.
max=${COMPARE_GUESTS:-3}
[[ $max =~ ^[1-9][0-9]*$ ]] || die "COMPARE_GUESTS must be a number of guests (1, 2, ...), not '$max'"

# start_column NAME CONFIG SCRIPT ARG: boot kernel CONFIG with guest SCRIPT
# (given ARG) in the background, results in $res/NAME, what it says in
# $res/NAME/boot.txt; end_column prints that once it is done.
start_column() {
	local name=$1 c=$2 script=$3 arg=$4 out=$res/$1 what=$2
	[ "$name" = "$c" ] || what="$c ($name)"
	if [ "${#pids[@]}" -ge "$max" ]; then
		end_column "${kernels[${#kernels[@]} - max]}" "${pids[${#pids[@]} - max]}"
	fi
	mkdir -p "$out"
	note "booting $what and running $(grep -vc '^#' "$arg") test programs (log: $out/output.log)"
	boot_guest "compare: $name" "$c" "$script" "$arg" "$out" >"$out/boot.txt" 2>&1 &
	pids+=("$!")
	cols+=("$name=$out/results.tsv")
	kernels+=("$name")
}
# end_column NAME PID: wait for NAME's guest (once) and print what it said.
declare -A ended
end_column() {
	[ -z "${ended[$1]:-}" ] || return 0
	ended[$1]=1
	wait "$2" || rc=1
	cat "$res/$1/boot.txt" >&2
}

for c in "${configs[@]}"; do
	start_column "$c" "$c" "$TOP/tests/run-tests.sh" "$BUILD/tests/runlist"
done

# The third column: the guest loads the utrace-on kernel's test module,
# runs the run list (without the engine selftests, ksft-utrace/) through
# the wrapper, and checks that the module unloads with every engine
# released; its last line says whether it did.
if [ -n "$bystander" ]; then
	if ! grep -qx 'CONFIG_TEST_UTRACE=m' "$BUILD/out/utrace-on/.config"; then
		echo "compare: the utrace-on kernel lacks CONFIG_TEST_UTRACE=m (kconfigs/utrace-on.config): no $by column" >&2
		rc=1
		bystander=""
	elif [ ! -x "$BUILD/tests/bystander/bystander" ]; then
		echo "compare: $BUILD/tests/bystander/bystander was not built (tests/build-programs.sh): no $by column" >&2
		rc=1
		bystander=""
	else
		start_column "$by" utrace-on "$TOP/tests/bystander/guest.sh" "$BUILD/tests/runlist"
	fi
fi
for i in "${!kernels[@]}"; do
	end_column "${kernels[$i]}" "${pids[$i]}"
done

# Built-in KUnit suites (utrace-on) print KTAP on the console at boot:
# one row per case ('kunit/SUITE CASE'), compared like every other row.
for c in "${configs[@]}"; do
	if grep -qx 'CONFIG_KUNIT=y' "$BUILD/out/$c/.config"; then
		kunit_rows "compare: $c" "$res/$c" || rc=1
		cols+=("$c=$res/$c/kunit.tsv")
	fi
done
if [ -n "$bystander" ] && ! grep -q '^# bystander: module ok' "$res/$by/output.log"; then
	grep '^# bystander: ' "$res/$by/output.log" >&2 || true
	echo "compare: the $by guest did not check out the test module (above; $res/$by/output.log): this fails the run" >&2
	rc=1
fi

# The real clients' transcripts (tests/clients), normalised and compared
# between all columns: one 'clients/NAME transcript' row per client.
if grep -q '^clients/' "$BUILD/tests/runlist"; then
	"$TOP/tests/clients/transcripts.py" "$res" "$BUILD/tests/runlist" "${kernels[@]}" || {
		echo "compare: comparing the clients' transcripts failed (above)" >&2
		rc=1
	}
	for c in "${kernels[@]}"; do
		if [ -f "$res/$c/transcripts.tsv" ]; then
			cols+=("$c=$res/$c/transcripts.tsv")
		else
			echo "compare: $res/$c/transcripts.tsv was not written: the transcript rows are missing" >&2
			rc=1
		fi
	done
fi

# The utrace engine tests (ksft-utrace/) need CONFIG_UTRACE=y: they skip on
# utrace-off, where their rows read n/a; the bystander column leaves them
# out (they load and unload the test module themselves), n/a there too.
# The KUnit rows (kunit/) come from utrace-on's boot, the one kernel with
# CONFIG_KUNIT=y: n/a on utrace-off and in the bystander column (the same
# kernel booted again), missing or failing on utrace-on fails the run.
# The /proc/PID/gdb test (gdbstub/) needs CONFIG_UTRACE_GDB: n/a on
# utrace-off, run in both utrace-on columns.
"$TOP/tests/side_by_side.py" "$res/compare.tsv" "${cols[@]}" "${absent[@]}" \
	--known "$TOP/tests/known-failures.txt" --only utrace-on=ksft-utrace/ \
	--only utrace-on=kunit/ --only utrace-on=gdbstub/ \
	--without "$by=ksft-utrace/" || rc=1
# The same results as a KernelCI (KCIDB) document (tests/README.md, "KCIDB").
kcidb_json "$res/kcidb.json" "$res/compare.tsv" || rc=1
exit $rc
