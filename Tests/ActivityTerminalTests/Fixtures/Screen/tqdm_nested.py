# An outer bar and inner bars below it that go away when done (position=1, leave=False).
import time
from tqdm import tqdm

for outer in tqdm(range(3), desc="outer"):
    for inner in tqdm(range(20), desc="inner", position=1, leave=False):
        time.sleep(0.01)
print("done")
