print("trajectories: not built yet")
