-- The compose postgres profile's server: one database per service.
CREATE DATABASE platform_identity;
CREATE DATABASE platform_household;
CREATE DATABASE platform_messaging;
CREATE DATABASE platform_social;
CREATE DATABASE platform_geo;
CREATE DATABASE platform_habits;
CREATE DATABASE platform_notifications;
