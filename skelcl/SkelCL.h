// The SkelCL library in one include: devices, distributions, containers and skeletons.
#pragma once

#include "skelcl/AllPairs.h"
#include "skelcl/DeviceError.h"
#include "skelcl/DeviceSet.h"
#include "skelcl/Distribution.h"
#include "skelcl/IndexMap.h"
#include "skelcl/IndexMatrix.h"
#include "skelcl/Map.h"
#include "skelcl/Matrix.h"
#include "skelcl/Reduce.h"
#include "skelcl/Scan.h"
#include "skelcl/Stencil.h"
#include "skelcl/Vector.h"
#include "skelcl/Zip.h"
#include "skelcl/ZipReduce.h"
