! A small Fortran MPI program (the mpi module): ring exchange with
! non-blocking calls, a reduction and a barrier. Prints a checksum that must
! not change under the interposer. Usage: fortran_ring [iterations]
program fortran_ring
  use mpi
  implicit none
  integer, parameter :: n = 2048
  integer :: ierr, rank, nprocs, left, right, it, i, iterations
  integer :: requests(2)
  integer :: statuses(MPI_STATUS_SIZE, 2)
  double precision :: x(n), incoming(n), local, total, checksum
  character(len=32) :: arg

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  iterations = 8
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) iterations
  end if
  right = mod(rank + 1, nprocs)
  left = mod(rank + nprocs - 1, nprocs)
  do i = 1, n
    x(i) = dble(rank + i)
  end do
  checksum = 0
  do it = 1, iterations
    do i = 1, n
      x(i) = 0.5d0 * x(i) + dble(mod(i + it, 5))
    end do
    call MPI_Irecv(incoming, n, MPI_DOUBLE_PRECISION, left, 11, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Isend(x, n, MPI_DOUBLE_PRECISION, right, 11, MPI_COMM_WORLD, requests(2), ierr)
    call MPI_Waitall(2, requests, statuses, ierr)
    local = sum(incoming) / n
    call MPI_Allreduce(local, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    checksum = checksum + total
  end do
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a, es20.12)', 'checksum', checksum
  call MPI_Finalize(ierr)
end program fortran_ring
