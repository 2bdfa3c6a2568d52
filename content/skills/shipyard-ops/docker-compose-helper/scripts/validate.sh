#!/bin/sh
# Validate a compose file and print the merged configuration's service names.
set -eu
file="${1:-docker-compose.yml}"
docker compose -f "$file" config --services
