"""Worker processes: the computer's searches, replays and analyses, off the event loop."""
