# onetool as a container: `onetool serve` over streamable HTTP on :8080.
#
#   docker build -t onetool .
#   docker run --rm -p 8080:8080 -v "$PWD/onetool.yaml:/etc/onetool/onetool.yaml:ro" \
#     -e ONETOOL_CONFIG=/etc/onetool/onetool.yaml onetool
#
# Without a configuration file it serves the built-in defaults.
#
# See docs/deploy.md for compose and Kubernetes.

FROM golang:1.26 AS build
WORKDIR /src
# Modules first, so that a source change reuses the download layer.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# A static binary: the SQLite driver (modernc.org/sqlite) is pure Go, and
# time zones are embedded (time/tzdata), so nothing is needed from libc.
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/onetool ./cmd/onetool

# distroless/static: CA certificates (for web.fetch and HTTPS upstream
# servers), /etc/passwd with the nonroot user, no shell, no package
# manager. It has no shell or curl, so no HEALTHCHECK here: let the
# orchestrator probe GET /healthz (503 while draining).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/onetool /usr/local/bin/onetool
# uid 65532; the home directory is writable for ~/.onetool state.
USER nonroot:nonroot
WORKDIR /home/nonroot
EXPOSE 8080
# On SIGTERM (docker stop, Kubernetes) onetool drains for up to
# serve.drain_timeout (30s by default): give docker stop -t or
# terminationGracePeriodSeconds more than that.
STOPSIGNAL SIGTERM
ENTRYPOINT ["onetool", "serve", "--http", "0.0.0.0:8080"]
