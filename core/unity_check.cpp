// SPDX-License-Identifier: GPL-2.0
/*
 * core/unity_check.cpp - every core source in one translation unit, the
 * way the kernel and KUnit modules build them.  Compiled by
 * scripts/host-tests with -ffreestanding -nostdinc to prove that the
 * core needs no hosted header and that no two files collide.
 */
#include "chunks.cpp"
#include "credits.cpp"
#include "planner.cpp"
#include "privdata.cpp"
#include "responder.cpp"
#include "v1.cpp"
#include "v2.cpp"
#include "selftest/selftest.cpp"
#include "selftest/st_credits.cpp"
#include "selftest/st_planner.cpp"
#include "selftest/st_privdata.cpp"
#include "selftest/st_responder.cpp"
#include "selftest/st_v1.cpp"
#include "selftest/st_v2.cpp"
