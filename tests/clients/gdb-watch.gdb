# gdb client: a hardware write watchpoint on the global 'watched', and
# nothing else: no breakpoint is left to step over and nothing is stepped
# while it is armed (a hardware watchpoint plus single-step can hang TCG).
set pagination off
set confirm off
set width 0
set height 0
set print thread-events off
handle SIGUSR1 nostop noprint pass
break main
run >/dev/null
delete
watch watched
pipe info watchpoints | grep -q "hw watchpoint"
if $_shell_exitcode != 0
  echo CLIENT-SKIP: gdb set a software watchpoint, no hardware debug register\n
  kill
  quit
end
continue
continue
delete
continue
