import CVideoIO
