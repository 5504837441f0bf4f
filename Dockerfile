# syntax=docker/dockerfile:1
# One build for every image. The `build` stage compiles the package once (all eight executables from one
# build folder, kept in a BuildKit cache mount across builds); each service's image is a small stage that
# copies its own executable and resource bundle onto the same slim runtime base and runs as a non-root user.
#
#   docker build --target identity -t platform/identity .     # one service
#   docker compose up --build                                  # all of them (the build stage runs once)
#
# The stage names are the executables' names in lower case: gateway, identity, social, messaging, geo,
# habits, household, notifications.

FROM swift:6.3-bookworm AS build
# The system libraries the services link against (SQLite for GRDB, OpenSSL and zlib for NIO/crypto).
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-dev libssl-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /build
COPY . .
# Each product is built from the same .build, so every module compiles once whichever product needs it.
RUN --mount=type=cache,target=/build/.build,id=platform-swift-build \
    set -eu; \
    products="Gateway Identity Social Messaging Geo Habits Household Notifications"; \
    for product in $products; do \
        swift build -c release --static-swift-stdlib --product "$product"; \
    done; \
    bin="$(swift build -c release --show-bin-path)"; \
    mkdir -p /out/bin /out/resources; \
    for product in $products; do cp "$bin/$product" /out/bin/; done; \
    cp -r "$bin"/*.resources /out/resources/

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
    && apt-get install -y --no-install-recommends libsqlite3-0 libssl3 zlib1g ca-certificates tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --no-create-home --home-dir /app platform \
    && mkdir /data && chown platform /data
WORKDIR /app
COPY --from=build /out/resources/GRDB_GRDB.resources /app/GRDB_GRDB.resources
USER 10001
ENV HOST=0.0.0.0 DATA_DIR=/data
VOLUME /data
ENTRYPOINT ["/app/app"]

FROM runtime AS gateway
COPY --from=build /out/bin/Gateway /app/app
# The API reference page (/docs) and its vendored Swagger UI.
COPY --from=build /out/resources/platform_GatewayService.resources /app/platform_GatewayService.resources
ENV PORT=8080

FROM runtime AS identity
COPY --from=build /out/bin/Identity /app/app
COPY --from=build /out/resources/platform_IdentityService.resources /app/platform_IdentityService.resources
ENV PORT=8081

FROM runtime AS social
COPY --from=build /out/bin/Social /app/app
COPY --from=build /out/resources/platform_SocialService.resources /app/platform_SocialService.resources
ENV PORT=8082

FROM runtime AS messaging
COPY --from=build /out/bin/Messaging /app/app
COPY --from=build /out/resources/platform_MessagingService.resources /app/platform_MessagingService.resources
ENV PORT=8083

FROM runtime AS geo
COPY --from=build /out/bin/Geo /app/app
COPY --from=build /out/resources/platform_GeoService.resources /app/platform_GeoService.resources
ENV PORT=8084

FROM runtime AS habits
COPY --from=build /out/bin/Habits /app/app
COPY --from=build /out/resources/platform_HabitsService.resources /app/platform_HabitsService.resources
ENV PORT=8085

FROM runtime AS household
COPY --from=build /out/bin/Household /app/app
COPY --from=build /out/resources/platform_HouseholdService.resources /app/platform_HouseholdService.resources
ENV PORT=8086

FROM runtime AS notifications
COPY --from=build /out/bin/Notifications /app/app
COPY --from=build /out/resources/platform_NotificationsService.resources /app/platform_NotificationsService.resources
ENV PORT=8087
