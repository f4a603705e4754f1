"""Background work: the scheduler, due jobs, the computer's turns and start-up catch-up."""
