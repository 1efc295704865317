-- Runs once, on the first start with an empty data volume. One database per app; each app also creates
-- its database if missing and migrates it on start.
CREATE DATABASE gateway;
CREATE DATABASE payments;
CREATE DATABASE payment_links;
CREATE DATABASE billing;
CREATE DATABASE webhooks;
