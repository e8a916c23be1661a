#!/bin/sh
# Smallest guest script: proves the guest boots and runs userspace.
echo "hello from the guest: $(uname -r)"
