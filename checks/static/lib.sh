# shellcheck shell=bash
# What the static checks (checks/static/*.sh) share: where they run, the
# findings cache, the base tree and the base diff.  Sourced, not run.
#
# A finding counts as new when the base tree does not have the same
# message for the same file (line numbers ignored, repeats counted); the
# base's own findings are listed separately, never hidden in ours.  Each
# check appends what it found to $tally ('new N', 'base N', 'bad
# CONFIG:FILE' lines, and 'done CHECK CONFIG' when it got to its end),
# which checks/static.sh adds up.  A check exits 1 when it found
# something new (or could not run: then its 'done' line is missing).
# shellcheck source=scripts/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/lib.sh"

chk=$BUILD/check
basesrc=$chk/base-src
tally=$chk/static.tally
who=static # how base_diff's messages start
mkdir -p "$chk" "$BUILD/results"
kgit rev-parse HEAD >/dev/null # no kernel tree (no HEAD): stop here
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
export CCACHE_BASEDIR=$BUILD
KBUILD_BUILD_TIMESTAMP=$(ref_get commit-date)
export KBUILD_BUILD_TIMESTAMP KBUILD_BUILD_USER=utrace KBUILD_BUILD_HOST=workbench

# The findings cache.  The base's findings for a file are a pure function
# of the base tree, the config, the tools, the check (its script, this
# file, its rules); so they are kept outside the clone, under that key, as
# ccache keeps objects: a fresh clone (CI) on a machine that ran the
# checks before needs neither the base checkout nor its prepare (about 8
# of the 12 minutes of the static checks).  The head's findings are kept
# the same way, keyed by HEAD's tree, so make test does not run the same
# spatch and sparse again on a kernel tree already checked (CI after a
# local run); never while the work tree has uncommitted changes.
# WORKBENCH_CACHE=DIR puts the cache elsewhere; deleting it is always
# safe.  (The directory is named base-findings/ for both: the head
# entries came later.)
cache_root=${WORKBENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/utrace-workbench}

# findings_dir CONFIG REV [RULE...]: the cache directory of this check's
# findings in REV's tree for CONFIG.
findings_dir() {
	local c=$1 rev=$2 key
	shift 2
	key=$({
		kgit rev-parse "$rev^{tree}"
		cat "$BUILD/out/$c/.config"
		sparse --version 2>&1
		spatch --version 2>&1 | head -n1
		gcc --version | head -n1
		cat "$0" "${BASH_SOURCE[0]}" "$@"
	} | sha256sum | cut -d' ' -f1)
	echo "$cache_root/base-findings/$key"
}

# cache_dirs CONFIG [RULE...]: set bcache (the base's findings) and hcache
# (HEAD's; empty while the work tree is dirty) and create them.
cache_dirs() {
	bcache=$(findings_dir "$1" base "${@:2}")
	hcache=
	[ -n "$(kgit status --porcelain)" ] || hcache=$(findings_dir "$1" HEAD "${@:2}")
	mkdir -p "$bcache" ${hcache:+"$hcache"}
	cached=0 head_reused=0
}

# slug FILE: a tree path as one cache file name.
slug() {
	echo "$1" | tr / _
}

# reuse KEY OUT CMD...: OUT gets the cache file KEY, or the output of CMD,
# which is stored under KEY (no KEY: CMD, nothing stored).
reuse() {
	local key=$1 out=$2
	shift 2
	if [ -n "$key" ] && [ -f "$key" ]; then
		cp "$key" "$out"
		head_reused=$((head_reused + 1))
		return
	fi
	"$@" >"$out"
	[ -z "$key" ] || { cp "$out" "$key.tmp" && mv "$key.tmp" "$key"; }
}

# store KEY CMD...: the output of CMD into the cache file KEY, whole or not
# at all (set -e stops the script when CMD fails).
store() {
	local key=$1
	shift
	"$@" >"$key.tmp"
	mv "$key.tmp" "$key"
}

# cache_summary CHECK CONFIG: what the cache saved this check.
cache_summary() {
	echo "static: $1, $2 config: $cached base finding file(s) reused from $bcache"
	if [ -z "$hcache" ]; then
		echo "static: $1, $2 config: uncommitted changes in the kernel tree: head findings computed, not cached"
	else
		echo "static: $1, $2 config: $head_reused head finding file(s) of this very tree ($(kgit rev-parse --short 'HEAD^{tree}')) reused from $hcache"
	fi
}

# The base tree.  base_tree: the base worktree in $basesrc.
base_tree() {
	if [ ! -d "$basesrc" ]; then
		note "checking out the base tree for reference findings ($basesrc)"
		kgit worktree add -q --detach "$basesrc" base
	fi
}

# static_args NAME CONFIG FILE...: the arguments every check takes; sets
# c (the config), o (its build directory) and bo (the base tree's), or
# dies with NAME's usage.  The caller shifts CONFIG off itself.
static_args() {
	local name=$1
	shift
	[ $# -ge 2 ] || die "usage: $name CONFIG FILE... (checks/static.sh runs it)"
	c=$1
	o=$BUILD/out/$c
	bo=$chk/base-out-$c
	[ -f "$o/.config" ] || die "no $o/.config: run 'make build' first"
}

# base_prepare CONFIG: the base worktree, configured and prepared for
# CONFIG in $chk/base-out-CONFIG, only when a base finding is not in the
# cache (a second check finds it prepared).
base_prepare() {
	local c=$1 o=$BUILD/out/$1 bo=$chk/base-out-$1
	base_tree
	mkdir -p "$bo"
	if ! cmp -s "$o/.config" "$bo/.config"; then
		cp "$o/.config" "$bo/.config"
		make -s -C "$basesrc" O="$bo" CC="$cc" olddefconfig >/dev/null
		make -s -C "$basesrc" O="$bo" CC="$cc" -j"$(nproc)" prepare >/dev/null 2>&1 ||
			die "preparing the base tree for $c failed in $bo"
	fi
}

# in_base FILE: is FILE in the base tree (else it has no base findings)?
in_base() {
	kgit cat-file -e "base:$1" 2>/dev/null
}

# normalise ROOT [EXTS]: "ROOT/path:line:col: msg" -> "path: msg" (sparse,
# coccicheck, compiler, kernel-doc, sphinx output) for files ending in
# one of EXTS (a regex, default 'c|h'), so head and base findings compare
# by file and text.
normalise() {
	sed -E -e "s#^$1/##" -e 's#^(\.\./)+##' |
		sed -E -n "s#^([^: ]+\\.(${2:-c|h})):[0-9]+(:[0-9-]+)?:? #\\1: #p" | LC_ALL=C sort
}

# sphinx_findings ROOT: sphinx's warnings and errors as "path: message"
# (ROOT and line numbers dropped).  A warning about a kernel-doc comment
# names the .rst and then the source file: the source file is kept.  One
# without a file reads "(htmldocs): ..." (checks/robot-checks.sh).
sphinx_findings() {
	{ grep -E '(WARNING|ERROR|SEVERE|CRITICAL):' || true; } | sed -E -e "s#$1/##g" \
		-e 's#^([^ :]+:[0-9]+: )+([^ :]+):[0-9]+: #\2: #' -e 's#^([^ :]+):[0-9]+: #\1: #' \
		-e 's#^(WARNING|ERROR|SEVERE|CRITICAL):#(htmldocs): \1:#' | LC_ALL=C sort
}

# numbered FILE: each line with its occurrence count, sorted, so that comm
# takes a multiset difference.  Line numbers inside a message ("preceding
# lock on line 504") move when the series adds lines above them, so they
# are masked too.
numbered() {
	sed -E 's/\<line [0-9]+/line N/g' "$1" | awk '{print $0 "\t" ++n[$0]}' | LC_ALL=C sort
}

# base_diff CHECK CONFIG FILE HEAD BASE: print the findings of HEAD (a
# file of "path: message" lines) that BASE does not have, and how many
# BASE has; record both in $tally.  CONFIG names the config in the
# messages (empty: none).  Returns 1 when there are new ones.
base_diff() {
	local check=$1 c=$2 f=$3 head=$4 base=$5 new in=" ($2 config)" of=", $2 config"
	[ -n "$c" ] || in="" of=""
	new=$(LC_ALL=C comm -23 <(numbered "$head") <(numbered "$base") | cut -f1)
	if [ -s "$base" ]; then
		echo "base $(wc -l <"$base")" >>"$tally"
	fi
	if [ -n "$new" ]; then
		echo "$who: NEW $check findings in $f$in:"
		printf '%s\n' "$new" | sed 's/^/    /'
		printf 'new %d\nbad %s:%s\n' "$(printf '%s\n' "$new" | wc -l)" "$c" "$f" >>"$tally"
	fi
	if [ -s "$base" ]; then
		echo "$who: (base's own $check findings in $f$of, not ours: $(wc -l <"$base"))"
	fi
	[ -z "$new" ]
}
