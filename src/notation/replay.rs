//! Replaying and converting game records.
