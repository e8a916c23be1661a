# utrace for Linux 6.12: the workbench.
#
# The kernel tree lives in $(LINUX_DIR) (ignored, never committed); the
# series lives in branches/.  See README.md for the daily workflow.

LINUX_DIR ?= $(CURDIR)/build/linux
export TOP := $(CURDIR)
export LINUX_DIR
export BUILD := $(CURDIR)/build

S := scripts

# The recipes source scripts/lib.sh, which is bash.
SHELL := /bin/bash

.PHONY: all deps tree export export-check rfc build check compare debug slow unit test bench bench-smoke profile clean help

all: compare

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## deps          install the Debian packages the workbench needs (as root)
deps:
	@$(S)/deps.sh

## tree          import the pinned kernel and apply branches/ as topic branches
tree: deps
	@$(S)/tree.sh

## export        write the kernel topic branches to branches/
export:
	@$(S)/export.sh

## export-check  fail when kernel work is not in branches/ (run before you stop)
export-check:
	@$(S)/export-check.sh

## rfc           write the whole stack as one RFC series (build/rfc/vN/) and the stable fix (build/rfc/stable/), checked with git am
rfc:
	@$(S)/rfc.sh

## build         build the guest kernels (utrace-off, and utrace-on once it exists)
build: tree
	@$(S)/build.sh $$(. $(S)/lib.sh && active_configs)
	@r=$$(. $(S)/lib.sh && absent_reason); [ -z "$$r" ] || echo "build: utrace-on not built: $$r"

## check         checkpatch, sparse, coccinelle, per-patch builds
check: tree
	@checks/run.sh

## compare       boot both kernels (utrace-on twice: plain, with a second engine), run the same tests, compare (default target)
compare: tree
	@$(S)/compare.sh

## debug         run every compare program on a lockdep/debug kernel (2 CPUs)
debug: tree
	@$(S)/debug.sh

## slow          what is too slow for make test: the robots' builds (W=1, kernel-doc, htmldocs, clang, i386), make debug on a KASAN+kmemleak and a PREEMPT_RT kernel, and the base tree against utrace-off (rows, and the code function by function)
slow: tree
	@r=0; checks/robot-checks.sh || r=1; $(S)/debug.sh kasan || r=1; $(S)/debug.sh rt || r=1; $(S)/debug.sh base || r=1; checks/base-code.sh || r=1; exit $$r

## unit          unit tests of the harness itself
unit:
	@python3 -m unittest discover -s tests/harness -t . -p 'test_*.py'

## test          everything CI runs: unit, check, compare
test: deps
	@$(S)/test.sh

## bench         measure ptrace and utrace costs on both kernels
bench: tree
	@bench/run.sh

## bench-smoke   a few seconds of each benchmark, so it cannot rot
bench-smoke: tree
	@bench/run.sh --smoke

## profile       instructions per function of one benchmark on both kernels (P=ptrace-syscall [N=2100] [A=arg, e.g. P=engines A=2])
P ?= ptrace-syscall
N ?= 2100
A ?=
profile: tree
	@$(S)/build.sh $$(. $(S)/lib.sh && active_configs)
	@bench/profile.sh $(P) $(N) $(A)

## clean         remove build products but keep the kernel tree and ccache
clean:
	rm -rf build/out build/tests build/results build/headers
