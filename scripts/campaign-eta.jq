# SPDX-License-Identifier: GPL-2.0
#
# The campaign's ETA: the seconds its site runs still need (scripts/campaign).
#
# input:  one line a site run of this session, "RUN WORKER DONE": the worker
#         (guest slot, 0..jobs-1) that runs it, DONE 1 when finished
# $s:     [ campaign/settings.json ]: each run's workloads with their
#         baseline_seconds (or their timeout when the baseline lacks them)
# $act:   the run.json of the runs there are (their "seconds")
# $overhead  seconds the baseline took beyond its workloads
# $boot   seconds a guest takes to boot and stop
# $batch  runs per guest boot
#
# A run is planned at its workloads' baseline seconds plus its overhead
# (starting and stopping trace-cmd, copying gcov and the logs): half of the
# baseline's is taken as what every run costs, half as growing with the
# workloads (their trace, their records).  Injection makes runs slower or quicker than that (retries, timeouts, early
# errors), and guests that share CPUs are slower: the runs finished in this
# session give the factor (actual / planned, within 0.5..4).  Each worker
# still has its unfinished runs times the factor plus a boot per batch of
# them; the campaign ends with its slowest worker.

($s[0].workloads | length) as $nbase
| def planned($r):
	[ $s[0].runs[] | select(.run == $r) | .workloads[] | .baseline_seconds // .timeout ]
	| (add // 0) + $overhead / 2 * (1 + length / $nbase);


  ([ $act[] | select(.seconds != null) | { (.run): .seconds } ] | add // {}) as $seconds
| [ inputs | split(" ") | select(length == 3)
    | { run: .[0], worker: (.[1] | tonumber), done: (.[2] == "1") } ] as $todo
| [ $todo[] | select(.done and $seconds[.run] != null)
    | { planned: planned(.run), actual: $seconds[.run] } ] as $finished
| (if ($finished | length) > 0 and ([ $finished[].planned ] | add) > 0
   then ([ $finished[].actual ] | add) / ([ $finished[].planned ] | add) else 1 end) as $f
| ([ [ $f, 0.5 ] | max, 4 ] | min) as $factor
| [ $todo[] | select(.done | not) ] | group_by(.worker)
| map(([ .[] | planned(.run) ] | add) * $factor + $boot * ((length + $batch - 1) / $batch | floor))
| (max // 0) | floor
