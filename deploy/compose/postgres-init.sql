-- The compose postgres profile's server: one database per service that keeps its data in PostgreSQL.
CREATE DATABASE platform_identity;
CREATE DATABASE platform_household;
CREATE DATABASE platform_messaging;
