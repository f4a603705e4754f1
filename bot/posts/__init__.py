"""What the bot posts and answers in words: texts, announcements, Discord's size limits."""
