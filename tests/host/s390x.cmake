# SPDX-License-Identifier: GPL-2.0
#
# tests/host for s390x, a big-endian CPU: Debian's cross compiler
# (g++-s390x-linux-gnu) and qemu-user's qemu-s390x, which ctest runs each
# test under (scripts/host-tests, step 1b).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR s390x)
set(CMAKE_C_COMPILER s390x-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER s390x-linux-gnu-g++)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-s390x)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
