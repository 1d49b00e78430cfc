"""blind."""
