"""seat."""
