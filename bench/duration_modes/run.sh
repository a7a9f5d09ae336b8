#!/usr/bin/env bash
# Driver for modes_probe.cu on the device machine: build, identify the GPU, check correctness, then
# K separate processes (each with C contexts) while nvidia-smi samples clocks/power every 100 ms, then a summary.
#   K=16 C=2 ROUNDS=6 L=40 bash bench/duration_modes/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/modes-out}
mkdir -p "$OUT"
K=${K:-16}; C=${C:-2}; ROUNDS=${ROUNDS:-6}; L=${L:-40}
BIN=/tmp/modes_probe
{
  echo "== build"; date -u
  nvcc -gencode arch=compute_90a,code=sm_90a -O3 -std=c++17 -o $BIN "$HERE/modes_probe.cu" -lcuda -ldl || exit 1
  echo "== gpu"
  nvidia-smi --query-gpu=uuid,name,pci.bus_id,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,power.default_limit,temperature.gpu,persistence_mode,compute_mode --format=csv
  nvidia-smi -q -d CLOCK,POWER,PERFORMANCE,TEMPERATURE | grep -v '^$' | head -120
} > "$OUT/env.log" 2>&1 || { cat "$OUT/env.log"; exit 1; }

REASONS=clocks_event_reasons.active
nvidia-smi --query-gpu=$REASONS --format=csv >/dev/null 2>&1 || REASONS=clocks_throttle_reasons.active
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,$REASONS --format=csv,noheader -lms 100 > "$OUT/smi.csv" 2>&1 &
SMI=$!

echo "== check $(date +%s.%N)" >> "$OUT/env.log"
timeout 60 $BIN check > "$OUT/check.log" 2>&1; crc=$?; echo "check rc=$crc" >> "$OUT/check.log"
tail -3 "$OUT/check.log"

: > "$OUT/results.csv"
T0=$(date +%s)
if [ "${PHASE:-modes}" = timeline ]; then
  : > "$OUT/timeline.csv"
  GAPS=(0 0.5 2 5)
  for i in $(seq 0 $((K - 1))); do
    [ "$crc" = 0 ] || break
    [ $(( $(date +%s) - T0 )) -lt ${DEADLINE:-400} ] || { echo "deadline: stopped before timeline process $i" >> "$OUT/env.log"; break; }
    idle=${GAPS[$((i % 4))]}; sleep $idle
    echo "PROC,$i,idle_before=$idle,$(date +%s.%N)" >> "$OUT/timeline.csv"
    timeout 40 $BIN timeline $i ${BURSTS:-10} $L ${GAPMS:-200} >> "$OUT/timeline.csv" 2>> "$OUT/env.log"; echo "PROC_END,$i,rc=$?" >> "$OUT/timeline.csv"
  done
  kill $SMI 2>/dev/null; wait $SMI 2>/dev/null
  python3 - "$OUT" > "$OUT/summary.txt" 2>&1 <<'PYEOF'
import sys, statistics as st, collections
rows = [l.strip().split(',') for l in open(sys.argv[1] + '/timeline.csv')]
idle = {r[1]: r[2] for r in rows if r[0] == 'PROC'}
T = collections.defaultdict(list)
for r in rows:
    if r[0] == 'TL': T[r[1]].append((int(r[2]), int(r[3]), float(r[4]), float(r[5]), float(r[6]), float(r[7])))
print('proc idle | per burst: median us / median in-kernel MHz | process median us, MHz, kcycles')
lv = []
for p in sorted(T, key=int):
    X = T[p]; bs = sorted({x[0] for x in X})
    s = ' '.join(f"{st.median(x[2] for x in X if x[0]==b):.0f}/{st.median(x[3] for x in X if x[0]==b):.0f}" for b in bs)
    m = st.median(x[2] for x in X); lv.append(m)
    print(f'{p:>2} {idle[p]:>16} | {s} | {m:.1f} {st.median(x[3] for x in X):.0f} {st.median(x[4] for x in X):.1f}')
print(f'process medians: ' + ' '.join(f'{x:.1f}' for x in lv) + f'; spread {(max(lv)-min(lv))/st.median(lv)*100:.2f}%')
allx = [x for p in T for x in T[p]]
import math
a = [x[2] for x in allx]; b = [1000.0 / x[3] for x in allx]
ma, mb = st.mean(a), st.mean(b)
print('corr(duration, 1/MHz) over all launches: %.3f; kcycles p5/p50/p95: %.1f %.1f %.1f' % (
    sum((p-ma)*(q-mb) for p, q in zip(a, b)) / len(a) / (st.pstdev(a) * st.pstdev(b)),
    sorted(x[4] for x in allx)[len(allx)//20], st.median(x[4] for x in allx), sorted(x[4] for x in allx)[-len(allx)//20]))
print('first 60 launches of processes 0 and 3 (us/MHz): ')
for p in ['0', '3']:
    if p in T: print(' ', ' '.join(f'{x[2]:.0f}/{x[3]:.0f}' for x in T[p][:60:3]))
PYEOF
  cat "$OUT/summary.txt"
  exit 0
fi
if [ "${PHASE:-modes}" = body ]; then
  : > "$OUT/body.csv"
  for i in $(seq 0 $((K - 1))); do
    [ "$crc" = 0 ] || break
    [ $(( $(date +%s) - T0 )) -lt ${DEADLINE:-400} ] || { echo "deadline: stopped before body process $i" >> "$OUT/env.log"; break; }
    lead=0; [ $i -ge $((K / 2)) ] && lead=$(( (i * 37) % 1024 + 1 ))
    timeout 40 $BIN body $i $lead $ROUNDS $L >> "$OUT/body.csv" 2>> "$OUT/env.log"; echo "PROC_END,$i,rc=$?" >> "$OUT/body.csv"
  done
  kill $SMI 2>/dev/null; wait $SMI 2>/dev/null
  python3 - "$OUT" > "$OUT/summary.txt" 2>&1 <<'PYEOF'
import sys, statistics as st
R = [l.strip().split(',') for l in open(sys.argv[1] + '/body.csv') if l.startswith('BODY')]
# BODY,proc,lead,kind,b,vaA,vaB,vaC,median_us,min_round,max_round,kcycles,mhz,t
procs = sorted({int(r[1]) for r in R})
sp = lambda v: (max(v) - min(v)) / st.median(v) * 100
first = []; pl_sp = []; sp_sp = []
print('proc lead | plain bodies 0-3 (us) | spacer bodies 4-11 (us) | kcycles of spacer bodies')
for p in procs:
    X = [r for r in R if int(r[1]) == p]
    pl = [float(r[8]) for r in X if r[3] == 'plain']; sv = [float(r[8]) for r in X if r[3] == 'spacer']
    kc = [float(r[11]) for r in X if r[3] == 'spacer']
    first.append(pl[0]); pl_sp.append(sp(pl)); sp_sp.append(sp(sv))
    print(f'{p:2d} {X[0][2]:>4s} | ' + ' '.join(f'{x:.1f}' for x in pl) + ' | ' + ' '.join(f'{x:.1f}' for x in sv) + ' | ' + ' '.join(f'{x:.0f}' for x in kc))
print(f'first body per process (what one test process sees): ' + ' '.join(f'{x:.1f}' for x in first) + f'; spread {sp(first):.2f}%')
print(f'within process: plain bodies spread median {st.median(pl_sp):.2f}%; spacer bodies spread median {st.median(sp_sp):.2f}% max {max(sp_sp):.2f}%')
va = {}
for r in R: va.setdefault((r[2], r[3], r[4]), set()).add(r[5])
print('distinct vaA per (lead,kind,body) across processes: ' + str(sorted({len(v) for v in va.values()})))
PYEOF
  cat "$OUT/summary.txt"
  exit 0
fi
if [ "${PHASE:-modes}" = vmm ]; then
  # physical x virtual placement with per-launch in-kernel clock, 3 input data kinds; then short processes
  : > "$OUT/vmm.csv"
  for i in $(seq 0 $((K - 1))); do
    [ "$crc" = 0 ] || break
    [ $(( $(date +%s) - T0 )) -lt ${DEADLINE:-400} ] || { echo "deadline: stopped before vmm process $i" >> "$OUT/env.log"; break; }
    echo "PROC_START,$i,$(date +%s.%N)" >> "$OUT/vmm.csv"
    timeout 40 $BIN vmm $i $ROUNDS $L >> "$OUT/vmm.csv" 2>> "$OUT/env.log"; echo "PROC_END,$i,$(date +%s.%N),rc=$?" >> "$OUT/vmm.csv"
  done
  : > "$OUT/short.csv"
  for i in $(seq 0 $((${KSHORT:-12} - 1))); do
    [ $(( $(date +%s) - T0 )) -lt ${DEADLINE:-400} ] || break
    sleep ${GAP:-1}
    echo "PROC_START,$i,$(date +%s.%N)" >> "$OUT/short.csv"
    timeout 40 $BIN run $i 1 0 40 >> "$OUT/short.csv" 2>> "$OUT/env.log"; echo "PROC_END,$i,$(date +%s.%N),rc=$?" >> "$OUT/short.csv"
  done
  kill $SMI 2>/dev/null; wait $SMI 2>/dev/null
  python3 - "$OUT" > "$OUT/summary.txt" 2>&1 <<'PYEOF'
import sys, collections, statistics as st
out = sys.argv[1]
R = [l.strip().split(',') for l in open(f'{out}/vmm.csv') if l.startswith('VMEAS')]
# VMEAS,proc,data,phys,virt,round,ev_med,ev_p10,ev_p90,span_med,mhz_med,mhz_p10,mhz_p90,kcyc_med,kcyc_p10,kcyc_p90,nvml_sm,pw,temp,reasons,t
for d in ['rand', 'zero', 'ints']:
    X = [r for r in R if r[2] == d]
    if not X: continue
    print(f'== data {d}: {len(X)} batches; event median us {st.median(float(r[6]) for r in X):.2f}, in-kernel MHz {st.median(float(r[10]) for r in X):.0f}, kcycles {st.median(float(r[13]) for r in X):.1f}, NVML power {st.median(float(r[17]) for r in X):.0f} W, reasons {collections.Counter(r[19] for r in X).most_common(3)}')
    print('   config (phys h, virt v): per process median of round medians of event us | kcycles')
    for h in range(3):
        for v in range(2):
            ev = []; kc = []
            for p in sorted({r[1] for r in X}, key=int):
                Y = [r for r in X if r[1] == p and r[3] == str(h) and r[4] == str(v)]
                if Y: ev.append(st.median(float(r[6]) for r in Y)); kc.append(st.median(float(r[13]) for r in Y))
            print(f'   h{h} v{v}: ' + ' '.join(f'{x:7.2f}' for x in ev) + '  | ' + ' '.join(f'{x:6.1f}' for x in kc))
    procs = sorted({r[1] for r in X}, key=int)
    lv = [st.median(float(r[6]) for r in X if r[1] == p) for p in procs]
    lk = [st.median(float(r[13]) for r in X if r[1] == p) for p in procs]
    print(f'   process levels us: ' + ' '.join(f'{x:.2f}' for x in lv) + f'  spread {(max(lv)-min(lv))/st.median(lv)*100:.2f}%')
    print(f'   process levels kcycles: ' + ' '.join(f'{x:.1f}' for x in lk) + f'  spread {(max(lk)-min(lk))/st.median(lk)*100:.2f}%')
    rr = [(float(r[8]) - float(r[7])) / float(r[6]) * 100 for r in X]
    print(f'   within-batch p10..p90 of event us: median {st.median(rr):.2f}%; kcycles p10..p90 median {st.median((float(r[15])-float(r[14]))/float(r[13])*100 for r in X):.2f}%')
S = [l.strip().split(',') for l in open(f'{out}/short.csv') if l.startswith('WARM,')]
W = collections.defaultdict(list)
for r in S: W[int(r[1])].append(float(r[4]))
print('== short processes (300 launches of ws each, 1 s apart): median of launches 0-49 | 100-299')
print('   ' + ' '.join(f'{st.median(w[:50]):.1f}|{st.median(w[100:]):.1f}' for p, w in sorted(W.items())))
PYEOF
  cat "$OUT/summary.txt"
  exit 0
fi
for i in $(seq 0 $((K - 1))); do
  [ "$crc" = 0 ] || [ "${FORCE:-0}" = 1 ] || { echo "check failed (rc=$crc): no timing" >> "$OUT/env.log"; break; }
  [ $(( $(date +%s) - T0 )) -lt ${DEADLINE:-400} ] || { echo "deadline: stopped before process $i" >> "$OUT/env.log"; break; }
  echo "PROC_START,$i,$(date +%s.%N)" >> "$OUT/results.csv"
  timeout 40 $BIN run $i $C $ROUNDS $L >> "$OUT/results.csv" 2>> "$OUT/env.log"; rc=$?
  echo "PROC_END,$i,$(date +%s.%N),rc=$rc" >> "$OUT/results.csv"
done
kill $SMI 2>/dev/null; wait $SMI 2>/dev/null
grep '^RAW' "$OUT/results.csv" > "$OUT/probes.csv"; grep -v '^RAW' "$OUT/results.csv" > "$OUT/r2" && mv "$OUT/r2" "$OUT/results.csv"
grep '^WARM,' "$OUT/results.csv" > "$OUT/warmup.csv"; grep -v '^WARM,' "$OUT/results.csv" > "$OUT/r2" && mv "$OUT/r2" "$OUT/results.csv"

python3 - "$OUT" > "$OUT/summary.txt" 2>&1 <<'EOF'
import sys, collections, statistics as st
out = sys.argv[1]
rows = [l.rstrip('\n').split(',') for l in open(f'{out}/results.csv')]
med = lambda v: st.median(v) if v else float('nan')
M = [r for r in rows if r[0] == 'MEAS']
# MEAS,proc,ctx,variant,placement,label,round,median,p10,p90,min,max,n,sm,mem,pw,temp,reasons,t
by = collections.defaultdict(list)
for r in M:
    by[(r[3], int(r[1]), int(r[2]), int(r[4]))].append((int(r[6]), float(r[7]), int(r[13]), float(r[15]), int(r[16]), r[17]))
variants = sorted({k[0] for k in by}, key=lambda v: ['ws','pers','cl2','ws_gmap','ws_flush'].index(v))
procs = sorted({k[1] for k in by}); ctxs = sorted({k[2] for k in by})
print('per variant: level per (process, context) = median over placements and rounds of batch medians (us)')
for v in variants:
    print(f'\n[{v}]')
    levels = []
    within_pl = []; within_rd = []
    for p in procs:
        line = f'  proc {p:2d}:'
        for c in ctxs:
            pls = sorted(k[3] for k in by if k[0] == v and k[1] == p and k[2] == c)
            if not pls: continue
            plmed = [med([x[1] for x in by[(v, p, c, pl)]]) for pl in pls]
            allb = [x[1] for pl in pls for x in by[(v, p, c, pl)]]
            lvl = med(allb); levels.append(lvl)
            within_pl.append((max(plmed) - min(plmed)) / lvl * 100)
            rd = [max(x[1] for x in by[(v, p, c, pl)]) - min(x[1] for x in by[(v, p, c, pl)]) for pl in pls]
            within_rd.append(med(rd) / lvl * 100)
            smc = med([x[2] for pl in pls for x in by[(v, p, c, pl)]]); pw = med([x[3] for pl in pls for x in by[(v, p, c, pl)]])
            tp = med([x[4] for pl in pls for x in by[(v, p, c, pl)]])
            line += f'  ctx{c}: {lvl:8.2f} (placements {min(plmed):.2f}..{max(plmed):.2f}; sm {smc:.0f} MHz, {pw:.0f} W, {tp} C)'
        print(line)
    if levels:
        print(f'  => across (process,context) levels: min {min(levels):.2f} max {max(levels):.2f} spread {(max(levels)-min(levels))/med(levels)*100:.2f}%;'
              f' within one context across placements: median {med(within_pl):.2f}% max {max(within_pl):.2f}%;'
              f' rounds of one placement: median {med(within_rd):.2f}%')
        print('  levels sorted: ' + ' '.join(f'{x:.1f}' for x in sorted(levels)))
print('\nper placement (all processes, ctx 0), variant ws: median of batch medians')
for pl in sorted({k[3] for k in by if k[0] == 'ws'}):
    vals = [med([x[1] for x in by[('ws', p, 0, pl)]]) for p in procs if ('ws', p, 0, pl) in by]
    lab = next(r[5] for r in M if r[3] == 'ws' and int(r[4]) == pl)
    print(f'  {pl:2d} {lab:10s} ' + ' '.join(f'{x:7.1f}' for x in vals))
P = [r for r in rows if r[0] == 'PROBE']
print('\nprobes (PROBE,proc,ctx,variant,pl,event_us,span_us,nsmid,sms_used,cta/sm min,max,tiles/sm min,max,cta_med_us,cta_max_us,max_sm_busy_us,mhz med,min,max): first 3 processes, placement 0')
for r in P:
    if int(r[1]) < 3 and r[4] == '0': print('  ' + ','.join(r[1:]))
print('\nprobe MHz (median over CTAs) range over all probes per variant:')
for v in ['ws','pers','cl2','ws_gmap']:
    mh = [float(r[16]) for r in P if r[3] == v]
    ev = [float(r[5]) for r in P if r[3] == v]
    if mh: print(f'  {v}: MHz {min(mh):.0f}..{max(mh):.0f}; probe event us {min(ev):.1f}..{max(ev):.1f}; sms_used {sorted({r[8] for r in P if r[3]==v})}; cta/sm max {sorted({r[10] for r in P if r[3]==v})}')
for r in rows:
    if r[0] in ('INFO',) or r[0].startswith('WARMEND') or (r[0] == 'PROC_END' and not r[3].endswith('=0')): print(','.join(r))
EOF
cat "$OUT/summary.txt" | head -80
