# gdb client, one run: catch syscall getpid (every stop continued), a
# breakpoint with its argument values, stepi, next, finish, SIGUSR1 stopped
# at and passed on to the handler, then the fork followed into the child,
# which stops in child_before_exec and execs the helper.
# No watchpoint here: gdb-watch.gdb runs it alone (a hardware watchpoint
# combined with single-step can hang a TCG guest).
set pagination off
set confirm off
set width 0
set height 0
set print thread-events off
handle SIGUSR1 stop print pass
set follow-fork-mode child
set detach-on-fork on
# 39 is getpid on x86_64: gdb-minimal has no syscall-name XML, so the number.
catch syscall 39
commands
continue
end
break work_step
break on_usr1
break child_before_exec
run >/dev/null
info args
stepi
stepi
next
next
finish
continue
continue
info args
continue
info args
continue
