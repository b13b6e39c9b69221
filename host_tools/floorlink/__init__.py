"""A table's link to the floor (docs/floor.md), which the table's tools (felt-emulator
--floor, felt-floor table) and the floor service both use: wire and kinds, the topics
and messages and each field they may hold; credentials and connection, the broker
reached over TLS; publisher, a table's frames onto the broker through its spool;
table_state, the table as the floor shows it; records, the rounds' public records."""
