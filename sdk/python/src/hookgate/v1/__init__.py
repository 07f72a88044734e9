"""The `hookgate.v1` protobuf messages, generated from
`proto/hookgate/v1/hookgate.proto` (see `tests/test_proto.py`)."""
