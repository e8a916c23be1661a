#!/usr/bin/env bash
# make rfc: the whole stack as one numbered RFC series, ready for
# 'git send-email' or b4, plus the stepping fix on its own for stable.
#
#   scripts/rfc.sh           write build/rfc/vN/ and build/rfc/stable/, then check them
#   scripts/rfc.sh --check   the same checks on a temporary copy (make test)
#
# rfc/version is N; rfc/cover.txt is the cover letter (subject line, blank
# line, body); rfc/changelog.txt has one section per version, newest first
# ("v2: ..." above "v1: first posting"), and is appended to the cover.
#
# The series is 'git format-patch --cover-letter --base=base' of
# base..<top topic> with the subject prefix "RFC PATCH vN", the cover's
# placeholders filled from rfc/ (git's branch-description mechanism, as
# in make export).  Checks, in a shared clone of the kernel tree (the tree
# itself is only read): every file is numbered [RFC PATCH vN MM/NN], the
# cover has the subject and base-commit: and no placeholder; 'git am' of
# the patches on base gives exactly the top topic's tree.  The stable
# series is the fix alone (its selftest builds on the five step tests
# before it, so it stays in the series), 'git am'ed on base; the fix
# gets 'Cc: stable@vger.kernel.org' only if it applies there, and each
# applied patch must have the same patch-id as its commit in the stack.
. "$(dirname "$0")/lib.sh"

RFC_DIR=${RFC_DIR:-$TOP/rfc}
# The stable series, by subject, in order; the first is the fix.  Its
# selftest (step_tracer_exit) is not part of it: the test's Makefile and
# .gitignore hunks need the step tests that come before it.
STABLE=(
	"ptrace: drop the step state when the tracer exits while we are stopped"
)
STABLE_CC="Cc: stable@vger.kernel.org"
PLACEHOLDERS=("*** SUBJECT HERE ***" "*** BLURB HERE ***")
WIDTH=72

check=0
case "${1:-}" in
--check) check=1 ;;
"") ;;
-h | --help)
	sed -n '2,21s/^# \{0,1\}//p' "$0"
	exit 0
	;;
*) die "usage: scripts/rfc.sh [--check]" ;;
esac

st=0
fail() {
	echo "rfc: $*" >&2
	st=1
}

# am_log: git am's complaint from $work/am.log, without its how-to-continue hints.
am_log() {
	grep -v -e '^hint: ' -e '^When you have resolved' -e '^If you prefer to skip' \
		-e '^To restore the original branch' "$work/am.log" | sed 's/^/  /' >&2 || true
}

# plain_text FILE: printable ASCII, at most $WIDTH columns a line.
plain_text() {
	local f=$1 name=${1#"$TOP"/} bad
	bad=$(LC_ALL=C grep -n '[^ -~]' "$f" | head -n 3) || true
	[ -z "$bad" ] || die "$name: only printable ASCII and spaces (no tabs), for a plain text mail; see line(s):"$'\n'"$bad"
	bad=$(awk -v w="$WIDTH" 'length($0) > w && n++ < 3 { print FNR ": " length($0) " columns" }' "$f")
	[ -z "$bad" ] || die "$name: lines of at most $WIDTH columns, please; too long:"$'\n'"$bad"
}

# read_rfc: validate rfc/ and set version, subject and the cover's text.
read_rfc() {
	local f first
	for f in version cover.txt changelog.txt; do
		[ -f "$RFC_DIR/$f" ] || die "${RFC_DIR#"$TOP"/}/$f is missing (README.md, 'Sending the series')"
	done
	version=$(cat "$RFC_DIR/version")
	[[ $version =~ ^[1-9][0-9]*$ ]] ||
		die "${RFC_DIR#"$TOP"/}/version must hold one number, the series version (1, 2, ...), not '$version'"
	plain_text "$RFC_DIR/cover.txt"
	plain_text "$RFC_DIR/changelog.txt"
	subject=$(sed -n 1p "$RFC_DIR/cover.txt")
	if [ -z "$subject" ] || [ -n "$(sed -n 2p "$RFC_DIR/cover.txt")" ] ||
		[ -z "$(sed -n '3,$p' "$RFC_DIR/cover.txt" | tr -d ' \n')" ]; then
		die "${RFC_DIR#"$TOP"/}/cover.txt: the subject on the first line, a blank line, then the text"
	fi
	case "$subject" in
	\[*) die "${RFC_DIR#"$TOP"/}/cover.txt: the subject without the [RFC PATCH vN 00/NN] prefix, which make rfc adds" ;;
	esac
	# Sections "vN:" at the start of a line, newest first; the first is this version's.
	# No pipe into head: under pipefail, the writer's SIGPIPE once the file
	# outgrew a pipe's buffer ended the script without a word (session 22's CI).
	first=$(awk 'NF { print; exit }' "$RFC_DIR/changelog.txt")
	[[ $first =~ ^v([0-9]+): && ${BASH_REMATCH[1]} == "$version" ]] ||
		die "${RFC_DIR#"$TOP"/}/changelog.txt has no section for v$version at its top (${RFC_DIR#"$TOP"/}/version says $version): add 'v$version:' and what changed since the last version (README.md, 'Sending the series')"
	awk '/^v[0-9]+:/ { v = substr($0, 2) + 0
		if (seen && v >= last) { print FNR; exit 1 }
		seen = 1; last = v }' "$RFC_DIR/changelog.txt" >/dev/null ||
		die "${RFC_DIR#"$TOP"/}/changelog.txt: the sections must go newest first, each version once"
	cover_text=$(
		cat "$RFC_DIR/cover.txt"
		printf '\nChangelog:\n'
		cat "$RFC_DIR/changelog.txt"
	)
}

# header FILE NAME: the value of mail header NAME in FILE, unfolded.
header() {
	awk -v name="$2" '
		/^$/ { exit }
		/^[ \t]/ { if (on) v = v $0; next }
		{ on = 0 }
		index($0, name ": ") == 1 { on = 1; v = substr($0, length(name) + 3) }
		END { print v }' "$1"
}

# check_numbering DIR PREFIX N COVER: the files of DIR are 0000 (if COVER)
# .. N, with subjects "[PREFIX MM/NN] ..." (just "[PREFIX]" for one patch
# without a cover) and the headers git send-email and b4 need.
check_numbering() {
	local dir=$1 prefix=$2 n=$3 cover=$4 files f i want subj h
	mapfile -t files < <(cd "$dir" && printf '%s\n' [0-9][0-9][0-9][0-9]-*.patch | sort)
	i=$((1 - cover))
	if [ "${#files[@]}" -ne $((n + cover)) ] || [ ! -f "$dir/${files[0]}" ]; then
		fail "${dir#"$TOP"/}: ${#files[@]} files, want $n patch(es)$([ "$cover" -eq 0 ] || echo ' and a cover letter')"
		return
	fi
	for f in "${files[@]}"; do
		if [ "$n" -eq 1 ] && [ "$cover" -eq 0 ]; then
			want="[$prefix]"
		else
			want=$(printf '[%s %0*d/%d]' "$prefix" "${#n}" "$i" "$n")
		fi
		subj=$(header "$dir/$f" Subject)
		case "$subj" in
		"$want "?*) ;;
		*) fail "$f: subject '$subj' does not start with '$want '" ;;
		esac
		for h in From Date; do
			[ -n "$(header "$dir/$f" "$h")" ] || fail "$f: no $h: header"
		done
		i=$((i + 1))
	done
}

read_rfc
base=$(kgit rev-parse -q --verify 'base^{commit}') || die "no kernel tree in $LINUX_DIR: run 'make tree'"

# The stack, resolved once: the topics may be rebased meanwhile.
declare -A tip
prev=$base
for t in "${TOPICS[@]}"; do
	sha=$(kgit rev-parse -q --verify "refs/heads/$t^{commit}") ||
		die "kernel tree has no branch '$t': run 'make tree'"
	kgit merge-base --is-ancestor "$prev" "$sha" ||
		die "kernel branch '$t' is not stacked on '$(topic_parent "$t")': rebase it, or wait for the rebase in progress to end"
	tip[$t]=$sha prev=$sha
done
top_t=${TOPICS[${#TOPICS[@]} - 1]}
top=$prev
n=$(kgit rev-list --count "$base..$top")
[ "$n" -gt 0 ] || die "nothing to send: base..$top_t is empty"

work=$(mktemp -d "${TMPDIR:-/tmp}/rfc.XXXXXX")
trap 'rm -rf "$work"' EXIT
if [ $check -eq 1 ]; then
	out=$work/v$version stable_out=$work/stable
else
	out=$BUILD/rfc/v$version stable_out=$BUILD/rfc/stable
	rm -rf "$out" "$stable_out"
fi
mkdir -p "$out" "$stable_out"

# A repository that borrows the kernel tree's objects (what 'git clone
# --shared' sets up, without its transport, which a hardened git config
# may forbid): 'git am' happens there.  Everything is named by commit id.
clone=$work/linux
git init -q "$clone"
echo "$(kgit rev-parse --path-format=absolute --git-common-dir)/objects" \
	>"$clone/.git/objects/info/alternates"
# The cover letter is From: whoever commits in the kernel tree.  Where git
# has no identity (a fresh CI machine), it is From: the author of the top
# commit, who wrote the series; git am in the clone commits as that, too.
if ! ident=$(kgit var GIT_COMMITTER_IDENT 2>/dev/null); then
	ident="$(kgit log -1 --format='%an <%ae>' "$top") 0 +0000"
	note "rfc: git has no user.name and user.email here: the cover letter is From: $top_t's author"
fi
ident=${ident% * *}
id_name=${ident% <*} id_email=${ident##*<}
id_email=${id_email%>}
cgit() {
	git -C "$clone" -c user.name="$id_name" -c user.email="$id_email" \
		-c commit.gpgSign=false -c core.hooksPath=/dev/null -c core.abbrev=12 \
		-c diff.noprefix=false -c diff.mnemonicPrefix=false -c diff.relative=false \
		-c format.signOff=false "$@"
}
format() {
	cgit format-patch -q --zero-commit --no-signature --suffix=.patch "$@" >/dev/null
}
# topic_of SHA: the lowest topic that holds commit SHA.
topic_of() {
	local t
	for t in "${TOPICS[@]}"; do
		if kgit merge-base --is-ancestor "$1" "${tip[$t]}"; then
			echo "$t"
			return
		fi
	done
}

# The RFC series, its cover letter filled in by git from the description.
cgit branch -q -f rfc-top "$top"
cgit config branch.rfc-top.description "$cover_text"
prefix="RFC PATCH v$version"
format --base="$base" --numbered --cover-letter --cover-from-description=subject \
	--subject-prefix="$prefix" -o "$out" "$base..rfc-top"
cover_file=$out/0000-cover-letter.patch
if [ -f "$cover_file" ]; then
	sed -i "0,/^Date: .*/s//Date: $(kgit log -1 --format=%aD "$top")/" "$cover_file"
	for p in "${PLACEHOLDERS[@]}"; do
		! grep -qF "$p" "$cover_file" ||
			fail "the cover letter still has git's placeholder '$p': fill it from rfc/cover.txt"
	done
	[ "$(header "$cover_file" Subject)" = "[$prefix $(printf '%0*d' "${#n}" 0)/$n] $subject" ] ||
		fail "the cover letter's subject is not rfc/cover.txt's first line: '$(header "$cover_file" Subject)'"
	grep -qx "base-commit: $base" "$cover_file" ||
		fail "the cover letter has no 'base-commit: $base' line (b4 needs it)"
fi
check_numbering "$out" "$prefix" "$n" 1

# git am on base must give the top topic's tree exactly.
note "rfc: git am of the $n patches on base (a checkout of base first)"
cgit checkout -q --detach "$base"
patches=()
for f in "$out"/[0-9][0-9][0-9][0-9]-*.patch; do
	[ "$f" = "$cover_file" ] || patches+=("$f")
done
if ! cgit am -q --no-3way --whitespace=nowarn "${patches[@]}" >"$work/am.log" 2>&1; then
	am_log
	fail "the RFC series does not apply on base with git am (above): look at the patch named there and at its topic branch"
	cgit am --abort >/dev/null 2>&1 || true
else
	got=$(cgit rev-parse 'HEAD^{tree}') want=$(kgit rev-parse "$top^{tree}")
	[ "$got" = "$want" ] ||
		fail "git am of the RFC series on base gives tree $got, not $top_t's $want: the patches lose something (binary files, a mode change?); compare 'git diff $top HEAD' in a clone"
	[ "$(cgit rev-list --count "$base..HEAD")" -eq "$n" ] || fail "git am made $(cgit rev-list --count "$base..HEAD") commits, not $n"
fi

# The stable series: the fix and its test, on base alone.
stable=()
for s in "${STABLE[@]}"; do
	sha=$(kgit log --format='%H %s' "$base..$top" | awk -v s="$s" 'substr($0, 42) == s { print $1 }')
	case "$sha" in
	"") fail "no commit '$s' in base..$top_t: update STABLE in scripts/rfc.sh if it was renamed" ;;
	*[[:space:]]*) fail "more than one commit '$s' in base..$top_t" ;;
	*) stable+=("$sha") ;;
	esac
done
if [ "${#stable[@]}" -eq "${#STABLE[@]}" ]; then
	cgit reset -q --hard "$base"
	applied=0
	for i in "${!stable[@]}"; do
		format -o "$work/stable-in/$i" -1 "${stable[$i]}"
		if ! cgit am -q --no-3way --whitespace=nowarn "$work/stable-in/$i"/*.patch >"$work/am.log" 2>&1; then
			am_log
			if [ "$i" -eq 0 ]; then
				fail "stable: the fix '${STABLE[0]}' does not apply with git am on base alone (git am's words above), so there is no stable series and no '$STABLE_CC': it needs earlier commits of $(topic_of "${stable[0]}"); put it first there"
			else
				fail "stable: '${STABLE[$i]}' does not apply with git am on base plus the patch(es) before it (git am's words above), so the stable series stops before it: it needs earlier commits of $(topic_of "${stable[$i]}") (the files named above); put the stable patches first on that branch, so that they apply on base alone"
			fi
			cgit am --abort >/dev/null 2>&1 || true
			break
		fi
		# The same change as in the stack (patch-ids ignore line numbers).
		a=$(cgit show HEAD | git patch-id --stable | cut -d' ' -f1)
		b=$(cgit show "${stable[$i]}" | git patch-id --stable | cut -d' ' -f1)
		[ "$a" = "$b" ] || fail "'${STABLE[$i]}' applies on base, but not as the same change (patch-id $a, in the stack $b)"
		applied=$((applied + 1))
	done
	if [ $applied -gt 0 ]; then
		format --base="$base" --subject-prefix=PATCH -o "$stable_out" "$base..HEAD"
		fix=$(cd "$stable_out" && printf '%s\n' 0001-*.patch | head -n 1)
		git interpret-trailers --in-place --where start --trailer "$STABLE_CC" "$stable_out/$fix"
		check_numbering "$stable_out" PATCH "$applied" 0
		sed '/^---$/q' "$stable_out/$fix" | grep -qx "$STABLE_CC" || fail "$fix: no '$STABLE_CC' trailer"
		for ((i = 1; i < applied; i++)); do
			! sed '/^---$/q' "$stable_out"/000$((i + 1))-*.patch | grep -qx "$STABLE_CC" ||
				fail "only the fix gets '$STABLE_CC'"
		done
	fi
fi

if [ $check -eq 1 ]; then
	[ $st -eq 0 ] && note "rfc: v$version, $n patches: git am on base gives $top_t's tree; the stable series (${#STABLE[@]} patch(es)) applies on base alone"
	exit $st
fi
note "rfc: ${out#"$TOP"/}: cover letter and $n patches, [$prefix MM/$n]"
if [ -n "${applied:-}" ] && [ "$applied" -gt 0 ]; then
	note "rfc: ${stable_out#"$TOP"/}: $applied patch(es) for stable, '$STABLE_CC' on the fix"
fi
if [ $st -eq 0 ]; then
	note "rfc: checked: git am on base gives $top_t's tree exactly; the stable series applies on base alone"
	note "rfc: send with 'git send-email --to=... ${out#"$TOP"/}/*.patch' (recipients: scripts/get_maintainer.pl in the kernel tree)"
fi
exit $st
