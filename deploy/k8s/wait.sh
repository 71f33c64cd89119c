#!/bin/bash
# Waits for a Job to end, Complete or Failed, and exits 0 only if it is
# Complete. 'kubectl wait --for=condition=complete' waits for Complete
# alone: a Job that turned Failed (an index out of backoffLimitPerIndex
# retries, maxFailedIndexes exceeded) leaves it hanging until its timeout.
#   deploy/k8s/wait.sh JOB [TIMEOUT, default 24h] [POLL seconds, default 30]
set -euo pipefail
job=$1 timeout=${2:-24h} poll=${3:-30}
KUBECTL=${KUBECTL:-kubectl}
case $timeout in *h) secs=$((${timeout%h} * 3600)) ;; *m) secs=$((${timeout%m} * 60)) ;; *s) secs=${timeout%s} ;; *) secs=$timeout ;; esac
deadline=$((SECONDS + secs))
while :; do
	conds=$("$KUBECTL" get "job/$job" -o 'jsonpath={range .status.conditions[?(@.status=="True")]}{.type} {end}')
	case " $conds " in
	*" Complete "*) echo "job/$job complete"; exit 0 ;;
	*" Failed "*)
		echo "job/$job failed; failed indexes: $("$KUBECTL" get "job/$job" -o 'jsonpath={.status.failedIndexes}')" >&2
		echo "re-run them: kubectl delete job $job (not the claim), then apply the Job again: every index resumes" >&2
		exit 1 ;;
	esac
	if ((SECONDS >= deadline)); then
		echo "job/$job neither complete nor failed after $timeout" >&2
		exit 1
	fi
	sleep "$poll"
done
