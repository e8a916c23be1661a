#!/usr/bin/env bash
# Install the Debian packages the workbench needs, if any is missing.
# The kernel source is pinned to the version in linux.git-submodule-ref;
# the tools float with Debian 12's stable updates.
. "$(dirname "$0")/lib.sh"

version=$(ref_get version)
pkgs=(
	"$(ref_get package)=$version"
	build-essential bc bison flex libelf-dev libssl-dev cpio xz-utils kmod
	python3 perl ccache sparse coccinelle libcap-dev python3-ply python3-git
	qemu-system-x86 gcc-multilib strace rsync stress-ng shellcheck
	python3-jsonschema python3-rfc3987
	clang lld python3-sphinx
	busybox-static
	gdbserver
)

missing=()
for p in "${pkgs[@]}"; do
	name=${p%%=*}
	want=${p#*=}
	have=$(dpkg-query -W -f='${Status} ${Version}' "$name" 2>/dev/null || true)
	case "$have" in
	"install ok installed "*)
		if [ "$want" != "$p" ] && [ "${have##* }" != "$want" ]; then
			missing+=("$p")
		fi
		;;
	*) missing+=("$p") ;;
	esac
done
# A debugger for the real-client tests: gdb if present, else the small one.
if ! command -v gdb >/dev/null; then
	missing+=(gdb-minimal)
fi

[ ${#missing[@]} -eq 0 ] && exit 0
mkdir -p "$BUILD"

[ "$(id -u)" -eq 0 ] || die "missing packages: ${missing[*]} (run as root, or install them with apt-get)"
note "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || die "apt-get update failed: is Debian's archive reachable?"
apt-get install -y -q --no-install-recommends "${missing[@]}" >"$BUILD/apt.log" 2>&1 ||
	die "apt-get install failed (log: $BUILD/apt.log)"
