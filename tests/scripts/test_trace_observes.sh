#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Tracing observes, never selects: a tracepoint's state (tp_on, tp_any in
# include/rpcrdmax/ktl/trace.h) may only decide whether an event fires.
# Every test of it in the C++ is one of
#   if (tp_on(...))  /  if (COND && tp_on(...))   the body then traces;
#   return tp_on(...);                            a helper saying whether
#                                                 an event is on;
#   if (!tp_on(...))  followed by  return;        a tracing helper that
#                                                 has nothing to do.
# A test negated or followed by more conditions
# (if (!tp_on(X) && plan(...))) chooses what runs and fails this check.
# KUnit's svcsrv_trace_observes shows that the server posts the same work
# with every event on.
#
# And every event is gated where the C++ fires it: each call of a shim's
# rpcrdmax_trace_*() has a tp_on/tp_any (or an MR's traced()) on its line
# or the three before, or sits in a trace* helper that starts with one or
# whose every call has one.
. "$(dirname "$0")/harness.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# tp_lint selects|ungated FILE...: print FILE:LINE: TEXT for each test of
# a tracepoint's state not in the forms above (selects), or each call of
# an rpcrdmax_trace_*() shim that no test guards (ungated).
tp_lint() {
	python3 - "$@" <<'PY'
import re, sys
mode, names = sys.argv[1], sys.argv[2:]
files = {f: open(f).read().split('\n') for f in names}
tp = re.compile(r'\btp_(on|any)\(')
gate = re.compile(r'\btp_(on|any)\(|\btraced\(')
call = re.compile(r'\brpcrdmax_trace_\w+\(')
defn = re.compile(r'^(?:[A-Za-z].*[\s:*&]|\t(?:static )?void )(trace\w*)\(.*[^;]$')

def selects(lines, i):
    l = lines[i].strip()
    if re.match(r'^return tp_(on|any)\(', l):
        return False
    if re.match(r'^if \(!tp_(on|any)\([^()]*\)\)$', l):
        return lines[i + 1].strip() != 'return;'
    # the condition this line is in: from its "if (" on (a line that is
    # neither an if nor the continuation of one tests outside any if)
    j = i
    while j > 0 and not re.match(r'^(\} else )?if \(', lines[j].strip()):
        if not re.search(r'(&&|\|\||\()$', lines[j - 1].strip()):
            return True
        j -= 1
    cond = ' '.join(x.strip() for x in lines[j:i + 1])
    # while a condition goes on past the test, it is not the last conjunct
    k = i
    while not re.search(r'\)( \{)?$', lines[k].strip()) and k + 1 < len(lines):
        k += 1
        cond += ' ' + lines[k].strip()
    return not re.search(r'(\(|&& )(ktl::)?tp_(on|any)\([^()]*\)\)( \{)?$', cond)

def strip(l):
    l = re.sub(r'"([^"\\]|\\.)*"', '""', l)
    return re.sub(r'//.*|/\*.*?\*/', '', l)

if mode == 'selects':
    for f, lines in files.items():
        for i, l in enumerate(lines):
            if tp.search(l) and selects(lines, i):
                print(f"{f}:{i + 1}: {l.strip()}")
    sys.exit(0)

# ungated: walk each file's blocks; a block or statement under an if
# whose condition tests a tracepoint is gated, and so is the rest of a
# body after "if (!tp_on(...)) return;".  trace* helpers whose every
# call is gated count as gated bodies.
def walk(lines, helper_ok):
    out = []
    stack = []          # one flag per open brace: inside a gated block
    pending = False     # the next statement is an if's body under a gate
    hdr = None          # an if header being read: [gated, paren depth]
    body_gated = False  # the next brace opens a gated helper's body
    for i, raw in enumerate(lines):
        l = strip(raw)
        t = l.strip()
        m = defn.match(raw)
        if m:
            body_gated = helper_ok(m.group(1))
        if hdr is None and re.match(r'^(\} else )?if \(', t):
            hdr = [False, 0]
        if hdr is not None:
            hdr[0] = hdr[0] or bool(gate.search(t)) and not re.search(r'!(tp_(on|any)|traced)\(', t)
        under = any(stack) or pending or (hdr is not None and hdr[0])
        if call.search(l) and not under:
            out.append(i)
        if re.match(r'^if \(!(tp_(on|any)|traced)\(', t) and lines[i + 1].strip() == 'return;' and stack:
            stack[-1] = True
        for ch in l:
            if hdr is not None:
                if ch == '(':
                    hdr[1] += 1
                elif ch == ')':
                    hdr[1] -= 1
            if ch == '{':
                g = body_gated or (hdr is not None and hdr[0]) or any(stack) or pending
                stack.append(g)
                body_gated = False
                if hdr is not None and hdr[1] == 0:
                    hdr = None
                pending = False
            elif ch == '}':
                if stack:
                    stack.pop()
            elif ch == ';' and hdr is None:
                pending = False
        if hdr is not None and hdr[1] == 0 and t.endswith(')'):
            pending = hdr[0]
            hdr = None
    return out

# trace* helpers: whether every call of each is gated
decl = lambda h, l: re.search(r'\b(void|bool|int|u32)\s+(\w+::)?' + h + r'\(', l)
helpers = set()
for f, lines in files.items():
    for l in lines:
        m = defn.match(l)
        if m:
            helpers.add(m.group(1))
ungated_calls = set()
for f, lines in files.items():
    for i, l in enumerate(lines):
        for h in helpers:
            if re.search(r'(?<![\w:])' + h + r'\(', l) and not decl(h, l):
                ungated_calls.add((f, i, h))
# a helper's call is gated when walk() would not report it as a trace call
ok = {h: True for h in helpers}
for f, lines in files.items():
    mine = {i: h for (g, i, h) in ungated_calls if g == f}
    if not mine:
        continue
    fake = [re.sub(r'(?<![\w:])(' + '|'.join(sorted(helpers)) + r')\(', r'rpcrdmax_trace_\1(', l)
            if i in mine else re.sub(r'rpcrdmax_trace_', 'x_', l) for i, l in enumerate(lines)]
    for i in walk(fake, lambda h: False):
        if i in mine:
            ok[mine[i]] = False
for f, lines in files.items():
    for i in walk(lines, lambda h: ok.get(h, False)):
        print(f"{f}:{i + 1}: {lines[i].strip()}")
PY
}

cat >"$tmp/a.cpp" <<'CPP'
int SvcConn::reply(svc_rqst *rqstp, CallCtx *cc)
{
	if (tp_on(RPCRDMAX_TP_SVCRDMA_POST_SEND))
		rpcrdmax_trace_svc_post_send(a, b, c, d);
	if (!rc && tp_on(RPCRDMAX_TP_SVCRDMA_ENCODE_WSEG))
		trace_reply_segments(sc, cc->call, p);
	if (!tp_on(RPCRDMAX_TP_SVCRDMA_ENCODE_WSEG) &&
	    core::plan_one_write_reply(cc->call, &written))
		return reply_one_write(rqstp, cc);
	if (!tp_on(RPCRDMAX_TP_XPRTRDMA_DECODE_SEG))
		return;
	if (!tp_on(RPCRDMAX_TP_XPRTRDMA_DECODE_SEG))
		send_more();
	return tp_on(RPCRDMAX_TP_XPRTRDMA_MR_UNMAP);
	bool fast = !tp_any(RPCRDMAX_TP_A, RPCRDMAX_TP_B);
	if ((!e || e->code == 2) &&
	    tp_any(RPCRDMAX_TP_SVCRDMA_ERR_VERS, RPCRDMAX_TP_SVCRDMA_ERR_CHUNK))
		rpcrdmax_trace_svc_err(xid, vers);
	} else if (tp_on(RPCRDMAX_TP_XPRTRDMA_ERR_UNRECOGNIZED)) {
	if (tp_on(RPCRDMAX_TP_XPRTRDMA_REPLY) &&
	    fast_path(rqst))
		return;
}
CPP
got=$(tp_lint selects "$tmp/a.cpp" | sed 's/^[^:]*://' | cut -d: -f1 | tr '\n' ' ')
[ "$got" = "7 12 15 20 " ]
check "made-up transport: selecting lines $got" $?

mapfile -t srcs < <(find "$ROOT/core" "$ROOT/lib" "$ROOT/xprtrdma" "$ROOT/svcrdma" \
	"$ROOT/include/rpcrdmax" \( -name '*.cpp' -o -name '*.h' \) ! -name trace.h | sort)
got=$(tp_lint selects "${srcs[@]}")
[ -z "$got" ]
check "the transports: ${got:-no tracepoint test selects what runs}" $?

cat >"$tmp/b.cpp" <<'CPP'
void Conn::post(Wr *wr)
{
	if (r.is_error() && tp_on(RPCRDMAX_TP_XPRTRDMA_POST_SEND_ERR))
		rpcrdmax_trace_post_send_err(rqst, cq, rc);
	if (r.is_error())
		rpcrdmax_trace_post_recvs_err(xprt, cq, rc);
	if (tp_any(RPCRDMAX_TP_SVCRDMA_DECODE_RSEG, RPCRDMAX_TP_SVCRDMA_DECODE_WSEG))
		trace_segments(rb, h.chunks);
	trace_returned(h.chunks);
	trace_lost(h.chunks);
}

static void trace_returned(const core::ChunkLists &cl)
{
	if (!tp_on(RPCRDMAX_TP_XPRTRDMA_DECODE_SEG))
		return;
	rpcrdmax_trace_decode_seg(s.handle, s.length, s.offset);
}

void SvcConn::trace_segments(const RecvBuf *rb, const core::ChunkLists &cl)
{
	const int cid = rb->cqe.id();

	rpcrdmax_trace_svc_rseg(cq, cid, i, c.position, s.handle, s.length, s.offset);
}

static void trace_lost(const core::ChunkLists &cl)
{
	const int cid = rb->cqe.id();

	rpcrdmax_trace_decode_seg(s.handle, s.length, s.offset);
}
CPP
got=$(tp_lint ungated "$tmp/b.cpp" | sed 's/^[^:]*://' | cut -d: -f1 | tr '\n' ' ')
[ "$got" = "6 31 " ]
check "made-up transport: ungated calls on lines $got" $?

got=$(tp_lint ungated "${srcs[@]}")
[ -z "$got" ]
check "the transports: ${got:-every event gated where it fires}" $?

finish
