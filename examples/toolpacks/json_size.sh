#!/bin/sh
# The command behind text.json_size (json_size.yaml).
#
# onetool writes the arguments to stdin as one compact JSON object with no
# trailing newline. With the one parameter `value` that is {"value":...},
# so the value is everything but the 10 bytes of {"value":}. Whatever the
# script prints on stdout is the result and must be one JSON value; a
# non-zero exit status makes the call fail with the end of stderr.
set -eu
total=$(wc -c | tr -d ' ')
printf '{"bytes": %d}\n' $((total - 10))
