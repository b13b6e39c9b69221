"""The floor: every table of a room on one MQTT broker, stored in one database
(docs/floor.md).  wire: the topics and messages; publisher: a table onto the broker;
service: the broker into the store; store: the database."""
