# One image recipe for every executable of the package: `docker build --build-arg PRODUCT=Identity .`
# docker-compose.yml builds one image per service this way.

FROM swift:6.3-bookworm AS build
# The system libraries the services link against (SQLite for GRDB, OpenSSL and zlib for NIO/crypto).
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-dev libssl-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY Package.swift ./
RUN swift package resolve
COPY . .
ARG PRODUCT
RUN swift build -c release --product "$PRODUCT" --static-swift-stdlib \
    && cp "$(swift build -c release --show-bin-path)/$PRODUCT" /build/app \
    && mkdir -p /build/resources \
    && find "$(swift build -c release --show-bin-path)" -maxdepth 1 -name '*.resources' -exec cp -r {} /build/resources/ \;

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-0 libssl3 zlib1g ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --create-home --home-dir /app platform \
    && mkdir /data && chown platform /data
WORKDIR /app
COPY --from=build /build/app /app/app
COPY --from=build /build/resources/ /app/
USER platform
ENV HOST=0.0.0.0 DATA_DIR=/data
VOLUME /data
ENTRYPOINT ["/app/app"]
