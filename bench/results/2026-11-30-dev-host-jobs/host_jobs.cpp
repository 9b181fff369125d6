#include "base/parallel.hpp"
#include <chrono>
#include <cstdio>
#include <vector>
#include <atomic>
#include <algorithm>
int main(){
  std::vector<std::atomic<int>> v(1<<14);
  std::vector<double> t;
  for (int rep=0; rep<7; ++rep){
    zgpu::KeepWorkersAwake awake;
    auto t0=std::chrono::steady_clock::now();
    for(int j=0;j<5000;++j) zgpu::parallel_for(v.size(), 2, [&](std::size_t b,std::size_t e){ for(auto i=b;i<e;++i) v[i].fetch_add(1, std::memory_order_relaxed); });
    auto t1=std::chrono::steady_clock::now();
    t.push_back(std::chrono::duration<double,std::micro>(t1-t0).count()/5000);
  }
  std::sort(t.begin(), t.end());
  std::printf("median %.1f us a job (min %.1f)\n", t[3], t[0]);
}
