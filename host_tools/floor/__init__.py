"""The floor: every table of a room on one MQTT broker, stored in one database
(docs/floor.md).  broker: the broker set up to know its tables; service: the broker
into the store; store: the database; page: what the supervisors see.  What a table
says to the floor and how it publishes it is host_tools.floorlink."""
