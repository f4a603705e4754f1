"""The storage errors the service turns into messages."""


class StoreError(Exception):
    """Base of the storage errors the service turns into messages."""


class StaleWrite(StoreError):
    """The match moved on since it was read: someone else's command landed first."""


class CorruptMatch(StoreError):
    """A match row that cannot be read; reported and skipped, never fatal."""
