#!/bin/bash
# A local nginx for the URL tests and benchmark (issue 52): Debian's nginx-light on 127.0.0.1,
# plain HTTP and TLS on a certificate of a CA made here (openssl), each location one case the
# client must handle. Nothing reaches beyond the machine.
#
#   local-nginx.sh start DIR [WATCH_PID]   serve DIR/root; prints "http=PORT https=PORT"
#   local-nginx.sh stop DIR
#
# DIR/ca.pem is the CA to trust (--ca-file); DIR/access.log has one line per request:
# "<uri> <status> <body_bytes_sent> <range>", what a test counts the bytes fetched with.
# With WATCH_PID, nginx is stopped when that process ends (a test run that crashed).
# Locations (under both ports):
#   /img/NAME           DIR/root/NAME, ranges honoured
#   /noranges/NAME      the same, ranges ignored (max_ranges 0: 200 and the whole body)
#   /moved/NAME         302 to /img/NAME;  /loop  302 to itself (a redirect loop)
#   /forbidden/NAME     403;  /busy/NAME  503;  /img/missing  404
#   /slow/NAME          100 bytes/s (a stalled server)
#   /drop/NAME          Content-Length of the whole file, then the connection closed after
#                       about 64 KiB (a proxy whose upstream stalls: a lying length, a drop)
#   /changing/NAME      DIR/root/a/NAME for a request from byte 0, DIR/root/b/NAME otherwise
#                       (an object replaced between the first request and the next)
set -euo pipefail
cmd=${1:?start|stop}
dir=$(cd "${2:?DIR}" && pwd)

free_port() {
  /usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

if [ "$cmd" = stop ]; then
  [ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null || true
  exit 0
fi

mkdir -p "$dir/root" "$dir/tmp"
if [ ! -f "$dir/ca.pem" ]; then
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=forcezoom test CA" \
    -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$dir/server.key" -out "$dir/server.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$dir/san.ext"
  openssl x509 -req -in "$dir/server.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" -CAcreateserial -days 2 \
    -extfile "$dir/san.ext" -out "$dir/server.pem" 2>/dev/null
fi
http=$(free_port)
https=$(free_port)
upstream=$(free_port)
# As root (CI), the workers would be nobody, who cannot read a test's private scratch folder.
user=""
[ "$(id -u)" = 0 ] && user="user root;"
cat >"$dir/nginx.conf" <<CONF
$user
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
daemon on;
events { worker_connections 64; }
http {
  access_log off;
  log_format bytes '\$request_uri \$status \$body_bytes_sent "\$http_range"';
  default_type application/octet-stream;
  client_body_temp_path $dir/tmp/body; proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fcgi; uwsgi_temp_path $dir/tmp/uwsgi; scgi_temp_path $dir/tmp/scgi;
  keepalive_requests 10000;
  map \$http_range \$variant { "~^bytes=0-" a; default b; }
  # The stalling upstream behind /drop/.
  server {
    listen 127.0.0.1:$upstream;
    location / { root $dir/root; limit_rate_after 64k; limit_rate 1; }
  }
  server {
    listen 127.0.0.1:$http;
    listen 127.0.0.1:$https ssl;
    ssl_certificate $dir/server.pem;
    ssl_certificate_key $dir/server.key;
    access_log $dir/access.log bytes;
    root $dir/root;
    location /img/ { alias $dir/root/; }
    location /noranges/ { alias $dir/root/; max_ranges 0; }
    location /moved/ { rewrite ^/moved/(.*)\$ /img/\$1 redirect; }
    location = /loop { return 302 /loop; }
    location /forbidden/ { deny all; }
    location /busy/ { return 503; }
    location /slow/ { alias $dir/root/; limit_rate 100; }
    location /drop/ {
      proxy_pass http://127.0.0.1:$upstream/;
      proxy_buffering off;
      proxy_read_timeout 1s;
      proxy_set_header Range "";
    }
    # A named capture: the map's regex would overwrite \$1.
    location ~ ^/changing/(?<object>.+)\$ { alias $dir/root/\$variant/\$object; }
  }
}
CONF
[ -f "$dir/nginx.pid" ] && kill "$(cat "$dir/nginx.pid")" 2>/dev/null && sleep 0.2 || true
nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" 2>>"$dir/error.log"
for _ in $(seq 50); do [ -s "$dir/nginx.pid" ] && break; sleep 0.1; done
if [ -n "${3:-}" ]; then
  watched=$3
  pid=$(cat "$dir/nginx.pid")
  (while kill -0 "$watched" 2>/dev/null && kill -0 "$pid" 2>/dev/null; do sleep 1; done
   kill "$pid" 2>/dev/null || true) </dev/null >/dev/null 2>&1 &
fi
echo "http=$http https=$https"
