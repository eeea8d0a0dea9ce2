import time
from tqdm import tqdm
for i in tqdm(range(20), desc="a long description of the work", ncols=150, mininterval=0, miniters=1):
    time.sleep(0.02)
