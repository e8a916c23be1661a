#!/usr/bin/env bash
# Our own coccinelle rules (checks/cocci/*.cocci) over the touched C
# files, as they are at HEAD.  They are about our code, so every finding
# counts: no base diff, no cache.
#
#   checks/static/cocci-ours.sh CONFIG FILE...
#
# CONFIG only names where the findings are counted: the rules, like
# coccinelle.sh's, do not see the config.
. "$(dirname "$0")/lib.sh"

static_args cocci-ours.sh "$@"
shift
rc=0
for f in "$@"; do
	for rule in "$TOP"/checks/cocci/*.cocci; do
		[ -f "$rule" ] || continue
		out=$(spatch --very-quiet -D report --no-show-diff --sp-file "$rule" \
			"$LINUX_DIR/$f" 2>/dev/null | sed "s#$LINUX_DIR/##") || true
		if [ -n "$out" ]; then
			echo "static: $(basename "$rule") finds in $f:"
			printf '%s\n' "$out" | sed 's/^/    /'
			printf 'new %d\nbad %s:%s\n' "$(printf '%s\n' "$out" | wc -l)" "$c" "$f" >>"$tally"
			rc=1
		fi
	done
done
echo "static: our coccinelle rules, $c config: $(find "$TOP/checks/cocci" -maxdepth 1 -name '*.cocci' | wc -l) rule(s) over $# file(s)"
echo "done cocci-ours $c" >>"$tally"
exit $rc
