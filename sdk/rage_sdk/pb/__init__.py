"""Generated from proto/rage/v1 by proto/generate.py (make proto): do not edit."""
