// SPDX-License-Identifier: GPL-2.0-only
/// The single-step state of a task is TIF_SINGLESTEP, TIF_BLOCKSTEP and
/// (x86) TIF_FORCED_TF together with the user TF/BTF bits and
/// SYSCALL_WORK_SYSCALL_EXIT_TRAP.  Only the arch step code keeps them
/// consistent; everyone else, ptrace and utrace included, must go through
/// user_enable_single_step(), user_enable_block_step() and
/// user_disable_single_step().  Flags a direct set or clear of one of
/// those thread flags outside arch/*/kernel/step.c and arch ptrace code.
//
// Confidence: High
// Options: --no-includes --include-headers

virtual report

@r depends on report@
expression T;
identifier F = {TIF_SINGLESTEP, TIF_BLOCKSTEP, TIF_FORCED_TF};
position p;
@@
(
set_tsk_thread_flag@p(T, F)
|
clear_tsk_thread_flag@p(T, F)
|
set_thread_flag@p(F)
|
clear_thread_flag@p(F)
|
test_and_clear_tsk_thread_flag@p(T, F)
|
test_and_set_tsk_thread_flag@p(T, F)
)

@script:python depends on report@
p << r.p;
f << r.F;
@@
import re
if not re.search(r'arch/[^/]+/kernel/(step|ptrace[^/]*)\.c$', p[0].file):
    coccilib.report.print_report(p[0],
        "sets or clears %s directly: use user_enable_single_step(), "
        "user_enable_block_step() or user_disable_single_step()" % f)
