"""Tests of the project as a whole: conformance cases, docs, generated code, the wheel, dependencies."""
