# cara's container image: the static binary on a minimal base, run as a non-root user. One image
# for every place cara runs in a container: sweep shards (deploy/k8s/sweep) and the workshop
# server (cara serve; deploy/k8s/room). docs/deploy.md walks through building and running it.
#
#   docker build -t cara .          (or: podman build -t cara .)
#   docker run --rm cara run covcon-d --trees 10
#   docker run -d --restart unless-stopped --memory 1g -v cara-state:/work -p 23234:23234 \
#     cara serve --listen 0.0.0.0:23234 --memory 800MiB --answers answers.jsonl ...
#
# Both images are arguments, for a registry mirror or an offline build:
#   --build-arg GO_IMAGE=mirror.example/golang:1.26.8-bookworm --build-arg BASE_IMAGE=scratch
ARG GO_IMAGE=docker.io/library/golang:1.26.8-bookworm
ARG BASE_IMAGE=gcr.io/distroless/static-debian12:nonroot

FROM ${GO_IMAGE} AS build
WORKDIR /src
# The modules first: a change to cara's code does not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Static (no cgo: no libc at run time), without local paths, smaller without the symbol table.
# .git is not sent (.dockerignore), so cara version says "devel": tag the image instead.
ENV CGO_ENABLED=0
RUN go build -trimpath -buildvcs=false -ldflags="-s -w" -o /out/cara ./cmd/cara \
 && /out/cara version \
 && mkdir -p /out/work
# /work is the working folder: a sweep's files, or a room's state (its host key and, with a
# relative --answers, its answers). It belongs to the non-root user, so a volume mounted there
# starts out writable by it, and everything a room keeps is on that volume by default.

FROM ${BASE_IMAGE}
COPY --from=build /out/cara /usr/local/bin/cara
COPY --from=build --chown=65532:65532 /out/work /work
# 65532 is distroless' "nonroot"; a number, so that any base works (scratch has no /etc/passwd).
USER 65532:65532
WORKDIR /work
# cara serve's default host key is $XDG_CONFIG_HOME/cara/ssh_host_ed25519: /work/cara, on the volume.
ENV HOME=/work XDG_CONFIG_HOME=/work
# The SSH server's port; metrics (--metrics 0.0.0.0:9234 to expose them) on the other.
EXPOSE 23234 9234
ENTRYPOINT ["/usr/local/bin/cara"]
CMD ["--help"]
