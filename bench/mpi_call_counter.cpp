// The PMPI wrappers: each counts and forwards to the PMPI_ entry point. The counters are process-global
// by necessity (MPI calls them, not we); the benchmark is single-threaded.
#include "mpi_call_counter.hpp"

#include <mpi.h>

namespace mdbench::bench {
namespace {
MpiCallCounts counts;
}  // namespace

MpiCallCounts mpiCallCounts() { return counts; }

}  // namespace mdbench::bench

using mdbench::bench::counts;

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  ++counts.collectives;
  return PMPI_Barrier(comm);
}
int MPI_Bcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  ++counts.collectives;
  return PMPI_Bcast(buffer, count, type, root, comm);
}
int MPI_Allreduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  ++counts.collectives;
  return PMPI_Allreduce(send, recv, count, type, op, comm);
}
int MPI_Reduce(const void* send, void* recv, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm) {
  ++counts.collectives;
  return PMPI_Reduce(send, recv, count, type, op, root, comm);
}
int MPI_Gather(const void* send, int send_count, MPI_Datatype send_type, void* recv, int recv_count,
               MPI_Datatype recv_type, int root, MPI_Comm comm) {
  ++counts.collectives;
  return PMPI_Gather(send, send_count, send_type, recv, recv_count, recv_type, root, comm);
}
int MPI_Gatherv(const void* send, int send_count, MPI_Datatype send_type, void* recv, const int recv_counts[],
                const int displs[], MPI_Datatype recv_type, int root, MPI_Comm comm) {
  ++counts.collectives;
  return PMPI_Gatherv(send, send_count, send_type, recv, recv_counts, displs, recv_type, root, comm);
}
int MPI_Allgather(const void* send, int send_count, MPI_Datatype send_type, void* recv, int recv_count,
                  MPI_Datatype recv_type, MPI_Comm comm) {
  ++counts.collectives;
  return PMPI_Allgather(send, send_count, send_type, recv, recv_count, recv_type, comm);
}
int MPI_Allgatherv(const void* send, int send_count, MPI_Datatype send_type, void* recv,
                   const int recv_counts[], const int displs[], MPI_Datatype recv_type, MPI_Comm comm) {
  ++counts.collectives;
  return PMPI_Allgatherv(send, send_count, send_type, recv, recv_counts, displs, recv_type, comm);
}
int MPI_Scatterv(const void* send, const int send_counts[], const int displs[], MPI_Datatype send_type,
                 void* recv, int recv_count, MPI_Datatype recv_type, int root, MPI_Comm comm) {
  ++counts.collectives;
  return PMPI_Scatterv(send, send_counts, displs, send_type, recv, recv_count, recv_type, root, comm);
}

int MPI_File_open(MPI_Comm comm, const char* name, int mode, MPI_Info info, MPI_File* file) {
  ++counts.file_collectives;
  return PMPI_File_open(comm, name, mode, info, file);
}
int MPI_File_close(MPI_File* file) {
  ++counts.file_collectives;
  return PMPI_File_close(file);
}
int MPI_File_sync(MPI_File file) {
  ++counts.file_collectives;
  return PMPI_File_sync(file);
}
int MPI_File_set_view(MPI_File file, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                      const char* datarep, MPI_Info info) {
  ++counts.file_collectives;
  return PMPI_File_set_view(file, disp, etype, filetype, datarep, info);
}
int MPI_File_set_size(MPI_File file, MPI_Offset size) {
  ++counts.file_collectives;
  return PMPI_File_set_size(file, size);
}
int MPI_File_read_at_all(MPI_File file, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                         MPI_Status* status) {
  ++counts.file_collectives;
  return PMPI_File_read_at_all(file, offset, buf, count, type, status);
}
int MPI_File_write_at_all(MPI_File file, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
                          MPI_Status* status) {
  ++counts.file_collectives;
  return PMPI_File_write_at_all(file, offset, buf, count, type, status);
}
int MPI_File_read_at(MPI_File file, MPI_Offset offset, void* buf, int count, MPI_Datatype type,
                     MPI_Status* status) {
  ++counts.file_independent;
  return PMPI_File_read_at(file, offset, buf, count, type, status);
}
int MPI_File_write_at(MPI_File file, MPI_Offset offset, const void* buf, int count, MPI_Datatype type,
                      MPI_Status* status) {
  ++counts.file_independent;
  return PMPI_File_write_at(file, offset, buf, count, type, status);
}
int MPI_File_get_size(MPI_File file, MPI_Offset* size) {
  ++counts.file_independent;
  return PMPI_File_get_size(file, size);
}

}  // extern "C"
